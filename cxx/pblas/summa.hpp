// The panel schedule of libtcgemm_pblas's PDGEMM (SUMMA: van de Geijn and Watts' scalable universal matrix
// multiplication): C_sub <- alpha * A_w * B_w + beta * C_sub, where A_w (m x k) is spread over the process
// rows as C_sub's rows are, and B_w (k x n) over the process columns as C_sub's columns are (pdgemm_abi.cpp
// redistributes the operands that are not, or are transposed). k goes by wide panels: each process row
// gathers the panel's columns of A_w from the process columns that hold them (one broadcast per block of A's
// column blocking along the row), each process column the panel's rows of B_w, and the local product adds
// the panel in one multiply. The local C stays where the local product keeps it for the whole call (on the
// GPU: uploaded once, downloaded once); the next panel is gathered on the host while the GPU multiplies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "block_cyclic.hpp"
#include "grid_comms.hpp"

namespace tcgemm::pblas {

// A distributed sub-matrix as seen by one process: its local array and the global start of the sub-matrix.
struct DistOperand {
  const double* local = nullptr;
  int64_t lld = 1;
  CyclicDim rows, cols;
  int64_t row0 = 0, col0 = 0;  // 0-based global start (ia - 1, ja - 1)
};

// One piece of a B panel: `rows` rows of the panel from panel row `row`, stored contiguously
// (rows x local columns, leading dimension rows) at `data`.
struct PanelPiece {
  int64_t row = 0, rows = 0;
  const double* data = nullptr;
};

// Where the local products happen. The schedule fills host panel buffers (two of each, used in turn) and
// hands them over; the implementation may still be reading a buffer when the schedule wants it back, so
// the schedule calls reclaim() first.
class LocalProduct {
 public:
  virtual ~LocalProduct() = default;
  // C_loc (mloc x nloc at c, leading dimension ldc) will receive alpha * sum of panels + beta * C_loc;
  // panels are at most `panel` wide. False on failure (message in *why); nothing of C written then.
  virtual bool begin(int64_t mloc, int64_t nloc, int64_t panel, double beta, double* c, int64_t ldc,
                     std::string* why) = 0;
  virtual double* panel_a(int buffer) = 0;  // mloc x panel, leading dimension mloc
  virtual double* panel_b(int buffer) = 0;  // panel x nloc, as pieces (PanelPiece)
  virtual bool reclaim(int buffer, std::string* why) = 0;
  // Adds alpha * A_panel (mloc x width) * B_panel (width x nloc, in pieces) to C_loc; `last`: no panel
  // follows (the GPU product then splits it by columns, so C comes back while the rest is multiplied).
  virtual bool add_panel(int buffer, int64_t width, double alpha, const std::vector<PanelPiece>& b_pieces,
                         bool last, std::string* why) = 0;
  // Waits for the products; C_loc is not written yet (a GPU product keeps it on the device).
  virtual bool finish(std::string* why) = 0;
  // Writes the result into the caller's C_loc (after every process of the grid finished).
  virtual bool write_back(std::string* why) = 0;
  // After a failure anywhere in the grid: drops the work; C_loc is unchanged (unless the implementation
  // works in place, as the CPU one does, which cannot fail).
  virtual void abandon() = 0;
};

struct SummaProblem {
  int64_t m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;
  DistOperand a, b;  // A_w (m x k), B_w (k x n)
  double* c_local = nullptr;
  int64_t c_lld = 1;
  CyclicDim c_rows, c_cols;
  int64_t c_row0 = 0, c_col0 = 0;
  int64_t panel = 2048;  // panel width in k
};

// Runs the schedule; collective over the grid. True when every process's C_loc holds the result. False
// (with *why on the process that failed) when any process's local product failed: every process still takes
// part in every broadcast, so none hangs, the grid agrees on the outcome before any C is written, and C is
// then unchanged everywhere (the caller hands the call to ScaLAPACK).
bool run_summa(const SummaProblem& p, const GridComms& g, LocalProduct& local, std::string* why);

}  // namespace tcgemm::pblas
