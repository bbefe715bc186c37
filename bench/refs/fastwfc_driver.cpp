// Runs fast-wfc's TilingWFC (github.com/math-fehr/fast-wfc, built by bench/wfc_refs.py) on a problem that
// bench/wfc_refs.py writes from an mxgmn simple-tiled set, once per seed; prints one line per seed:
// "seed solved seconds" (construction and run, the process start and the input left out).
//
// Input (text): "tiles K", then K lines "name symmetry weight"; "neighbors M", then M lines
// "left_index left_orientation right_index right_orientation" (indices into the tile list).
// Usage: fastwfc_driver PROBLEM WIDTH HEIGHT PERIODIC(0|1) SEEDS BUDGET_SECONDS

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include "tiling_wfc.hpp"

static Symmetry symmetry_of(const std::string &name) {
  if (name == "T") return Symmetry::T;
  if (name == "I") return Symmetry::I;
  if (name == "L") return Symmetry::L;
  if (name == "\\") return Symmetry::backslash;
  if (name == "P") return Symmetry::P;
  return Symmetry::X;
}

int main(int argc, char **argv) {
  if (argc != 7) {
    std::cerr << "usage: fastwfc_driver PROBLEM WIDTH HEIGHT PERIODIC SEEDS BUDGET_SECONDS\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string word;
  unsigned count = 0;
  in >> word >> count;
  std::vector<Tile<int>> tiles;
  for (unsigned i = 0; i < count; i++) {
    std::string name, symmetry;
    double weight = 1.0;
    in >> name >> symmetry >> weight;
    Array2D<int> pixel(1, 1, static_cast<int>(i));
    tiles.emplace_back(pixel, symmetry_of(symmetry), weight);
  }
  in >> word >> count;
  std::vector<std::tuple<unsigned, unsigned, unsigned, unsigned>> neighbors;
  for (unsigned i = 0; i < count; i++) {
    unsigned a, oa, b, ob;
    in >> a >> oa >> b >> ob;
    neighbors.emplace_back(a, oa, b, ob);
  }
  if (!in) {
    std::cerr << "fastwfc_driver: cannot read " << argv[1] << "\n";
    return 2;
  }
  const unsigned width = std::stoul(argv[2]), height = std::stoul(argv[3]);
  const bool periodic = std::string(argv[4]) == "1";
  const int seeds = std::stoi(argv[5]);
  const double budget = std::stod(argv[6]);
  const auto begin = std::chrono::steady_clock::now();
  for (int seed = 0; seed < seeds; seed++) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() > budget) break;
    const auto start = std::chrono::steady_clock::now();
    TilingWFC<int> wfc(tiles, neighbors, height, width, {periodic}, seed);
    const bool solved = wfc.run().has_value();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%d %d %.9f\n", seed, solved ? 1 : 0, seconds);
    std::fflush(stdout);
  }
  return 0;
}
