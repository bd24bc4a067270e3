!> Device matrices of the two real kinds do not mix, checked at compile time by
!> expect_compile_error.cmake: as it stands this program must compile (each matrix type in its
!> own GEMM, the shared generics resolving for both); with -DTCGEMM_R32_IN_DGEMM a real(real32)
!> matrix given to tcgemm_dgemm, and with -DTCGEMM_R64_IN_SGEMM a real(real64) one given to
!> tcgemm_sgemm, must be refused ("no specific subroutine for the generic"): at run time either
!> would read the memory as the wrong kind.
program real_kinds
  use, intrinsic :: iso_fortran_env, only: real32, real64
  use tcgemm, only: tcgemm_device_matrix, tcgemm_device_matrix_r32, tcgemm_dgemm, &
                    tcgemm_sgemm, tcgemm_device_allocate, tcgemm_device_view, tcgemm_copy, &
                    tcgemm_device_deallocate, TCGEMM_PRECISION_TF32
  implicit none
  type(tcgemm_device_matrix) :: d
  type(tcgemm_device_matrix_r32) :: s
  real(real64) :: x(4, 4)
  real(real32) :: y(4, 4)
  integer :: stat

  x = 0
  y = 0
  call tcgemm_device_allocate(d, source=x, stat=stat)
  call tcgemm_device_allocate(s, source=y, stat=stat)
  call tcgemm_copy(d, x, stat=stat)
  call tcgemm_copy(s, y, stat=stat)
  call tcgemm_dgemm('N', 'N', 1.0_real64, d, tcgemm_device_view(d, 1, 1, 4, 4), 0.0_real64, d, &
                    stat=stat)
  call tcgemm_sgemm('N', 'N', 1.0, s, tcgemm_device_view(s, 1, 1, 4, 4), 0.0, s, &
                    TCGEMM_PRECISION_TF32, stat=stat)
#ifdef TCGEMM_R32_IN_DGEMM
  call tcgemm_dgemm('N', 'N', 1.0_real64, s, d, 0.0_real64, d, stat=stat)
#endif
#ifdef TCGEMM_R64_IN_SGEMM
  call tcgemm_sgemm('N', 'N', 1.0, s, s, 0.0, d, TCGEMM_PRECISION_TF32, stat=stat)
#endif
  call tcgemm_device_deallocate(d, stat=stat)
  call tcgemm_device_deallocate(s, stat=stat)
end program real_kinds
