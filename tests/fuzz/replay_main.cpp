// Runs a fuzz target without libFuzzer, so that any compiler's build (the test command's ASan
// build with gcc) exercises it: every input of the given files and folders, then `mutations`
// variants of each (byte flips, insertions, deletions, truncations and splices with another
// input), chosen by a fixed seed so a run repeats exactly. Before each call the input is written
// to `last_input`, so a crash leaves the input that caused it for a replay with the real fuzzer
// build (scripts/fuzz.sh). Exits 0 once every input ran; a finding aborts under the sanitizers.
// Usage: fuzz_<target>_replay <mutations> <last_input> <file or folder>...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

using Bytes = std::vector<uint8_t>;

Bytes read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<Bytes> read_inputs(int argc, char** argv) {
  std::vector<std::filesystem::path> paths;
  for (int i = 3; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg)) {
        if (entry.is_regular_file()) paths.push_back(entry.path());
      }
    } else {
      paths.push_back(arg);
    }
  }
  std::sort(paths.begin(), paths.end());  // the order, and so the mutations, never vary
  std::vector<Bytes> inputs;
  for (const auto& path : paths) inputs.push_back(read_file(path));
  return inputs;
}

// One variant of `input`: a few edits of the kinds libFuzzer's mutator makes most often.
Bytes mutate(Bytes input, const std::vector<Bytes>& all, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    // A place between two bytes (or at either end); a byte at it, if there is one.
    const size_t at = rng() % (input.size() + 1);
    const bool on_byte = at < input.size();
    switch (rng() % 5) {
      case 0:
        if (on_byte) input[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      case 1:
        input.insert(input.begin() + static_cast<long>(at), static_cast<uint8_t>(rng()));
        break;
      case 2:
        if (on_byte) input.erase(input.begin() + static_cast<long>(at));
        break;
      case 3:
        input.resize(at);
        break;
      default: {
        const Bytes& other = all[rng() % all.size()];
        input.resize(at);
        const size_t from = other.empty() ? 0 : rng() % other.size();
        input.insert(input.end(), other.begin() + static_cast<long>(from), other.end());
      }
    }
  }
  return input;
}

void run(const Bytes& input, const char* last_input) {
  {
    std::ofstream out(last_input, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(input.data()), static_cast<long>(input.size()));
  }
  LLVMFuzzerTestOneInput(input.data(), input.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s <mutations> <last_input> <file or folder>...\n", argv[0]);
    return 2;
  }
  const int mutations = std::atoi(argv[1]);
  const char* last_input = argv[2];
  const std::vector<Bytes> inputs = read_inputs(argc, argv);
  if (inputs.empty()) {
    std::fprintf(stderr, "no inputs found\n");
    return 2;
  }
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  std::mt19937_64 rng(0x4475656c68616c6cULL);
  size_t runs = 0;
  for (const Bytes& input : inputs) {
    run(input, last_input);
    ++runs;
    for (int m = 0; m < mutations; ++m, ++runs) run(mutate(input, inputs, rng), last_input);
  }
  std::printf("%zu inputs from %zu in the corpus, no finding\n", runs, inputs.size());
  return 0;
}
