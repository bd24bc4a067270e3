// The two local products of the panel schedule (summa.hpp): on the rank's GPU through tcgemm_dgemm (the
// route libtcgemm_pblas exists for), and on the CPU through the program's BLAS dgemm_ (the same schedule
// without a GPU: for the CI tests of the communication, and for machines without one, on request).
#pragma once

#include <memory>

#include "summa.hpp"

namespace tcgemm::pblas {

std::unique_ptr<LocalProduct> make_cpu_product();
// On CUDA device `device`.
std::unique_ptr<LocalProduct> make_gpu_product(int device);

}  // namespace tcgemm::pblas
