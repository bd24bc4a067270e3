// The BLACS, PBLAS and ScaLAPACK functions libtcgemm_pblas, its tests and its benchmark call (C prototypes
// of their Fortran or C entry points as ScaLAPACK 2.x exports them; INTEGER is int). The array descriptor is ScaLAPACK's dense one:
// DTYPE_ = 1, CTXT_, M_, N_, MB_, NB_, RSRC_, CSRC_, LLD_.
#pragma once

#include <mpi.h>

extern "C" {
void Cblacs_pinfo(int* me, int* nprocs);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridexit(int context);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);
void pdgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a, const int* ia,
             const int* ja, const int* desca, const double* x, const int* ix, const int* jx, const int* descx,
             const int* incx, const double* beta, double* y, const int* iy, const int* jy, const int* descy,
             const int* incy);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
int Cblacs_pnum(int context, int prow, int pcol);
void Cblacs_get(int context, int what, int* value);
MPI_Comm Cblacs2sys_handle(int system_handle);
void pdgemr2d_(const int* m, const int* n, const double* a, const int* ia, const int* ja, const int* desca, double* b,
               const int* ib, const int* jb, const int* descb, const int* context);
void pdtran_(const int* m, const int* n, const double* alpha, const double* a, const int* ia, const int* ja,
             const int* desca, const double* beta, double* c, const int* ic, const int* jc, const int* descc);
}

namespace tcgemm::pblas {
enum DescField { kDtype = 0, kCtxt, kM, kN, kMb, kNb, kRsrc, kCsrc, kLld, kDescLen };
}
