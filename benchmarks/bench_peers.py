"""Peer-game speed figures: Mansions corner-dot sight, Arkham chaos-bag readings, hunter moves.

Mansions sight on the 20x20 board of :mod:`benchmarks.bench_board` (all of one space's
targets, every one of up to 16 exact dot-to-dot lines walked across the grid); one Arkham skill
test with a 16-token bag under the chain and best-of-two readings (exact, every draw order
counted once through a cache of the bag left); every hunter's move on 60 random locations.
Run with ``python -m benchmarks``.

Targets on the 2-core machine (our own): one space's Mansions sight <= 1 s; the Arkham
test with both readings <= 0.5 s; 60 hunters <= 0.5 s.
"""

from __future__ import annotations

import random
import time

from benchmarks.bench_board import board_text
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import SpaceKind, parse_map
from machina_nb.rules.peers import arkham, hunters, mansions
from machina_nb.rules.rulings import Rules

BAG = "+1,0,0,-1,-1,-1,-2,-2,-3,-4,skull,skull,cultist,tablet,auto_fail,elder_sign"


def _best(run, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    legend = {letter: SpaceKind.FLOOR for letter in "ABCDM"}
    board = Board.from_layout(parse_map(board_text(), legend=legend))
    rules = Rules()
    seen = _best(lambda: mansions.visible_from(board, (10, 8), rules), repeat=1)
    print(f"Mansions sight from one space of 20x20: {seen * 1000:.0f} ms (target <= 1000 ms)")

    both = rules.replace({"arkham.reveal_another": "chain_marked", "arkham.draw": "best_of_two"})
    bag = arkham.Bag.parse(BAG, "skull=-1,cultist=-2,tablet=-3", 1, ("skull", "cultist"))

    def arkham_test():
        arkham._chains.cache_clear()
        arkham.success_chance(bag, 3, 4, both)
    took = _best(arkham_test)
    print(f"Arkham test, 16 tokens, chains + best of two: {took * 1000:.0f} ms (target <= 500 ms)")

    rng = random.Random(15)
    names = [f"l{i}" for i in range(60)]
    locations = hunters.Locations.of({n: rng.sample([m for m in names if m != n], 3)
                                      for n in names})
    people = tuple(hunters.Investigator(f"i{k}", rng.choice(names)) for k in range(4))
    moves = _best(lambda: [hunters.hunter_move(locations, hunters.Hunter("h", n), people)
                           for n in names])
    print(f"60 hunters on 60 locations: {moves * 1000:.0f} ms (target <= 500 ms)")


if __name__ == "__main__":
    main()
