// The batched benchmark (batched_bench.cu): `tcgemm-bench batched ...` and the tcgemm-batched-bench program.
#pragma once

namespace tcgemm::bench {

// argv[0] names the command (for --help); the options follow. Returns the exit status.
int run_batched_bench(int argc, char** argv);

}  // namespace tcgemm::bench
