!> Which integer kinds tcgemm_dgemm (host arrays) accepts, checked at compile time by
!> expect_compile_error.cmake: as it stands this program must compile (sizes all default integer
!> or all int64, stat of either kind, ranks mixed); with -DTCGEMM_MIX_KINDS the one call whose
!> sizes mix kinds must be refused ("no specific subroutine for the generic"), not converted.
program integer_kinds
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  use tcgemm, only: tcgemm_dgemm
  implicit none
  real(real64) :: a(8, 8), b(64), c(8, 8)
  integer(int32) :: stat32
  integer(int64) :: stat64

  a = 0
  b = 0
  c = 0
  call tcgemm_dgemm('N', 'N', 4, 4, 4, 1.0_real64, a(2, 2), 8, b, 8, 0.0_real64, c, 8, stat32)
  call tcgemm_dgemm('N', 'N', 4, 4, 4, 1.0_real64, a(2, 2), 8, b, 8, 0.0_real64, c, 8, stat64)
  call tcgemm_dgemm('N', 'N', 4_int64, 4_int64, 4_int64, 1.0_real64, a, 8_int64, b(9), &
                    8_int64, 0.0_real64, c(1, 2), 8_int64, stat=stat32)
  call tcgemm_dgemm('N', 'N', 4_int64, 4_int64, 4_int64, 1.0_real64, a, 8_int64, b(9), &
                    8_int64, 0.0_real64, c(1, 2), 8_int64, stat=stat64)
#ifdef TCGEMM_MIX_KINDS
  ! Default-integer m, n, k with an int64 lda: one size of the other kind.
  call tcgemm_dgemm('N', 'N', 4, 4, 4, 1.0_real64, a, 8_int64, b, 8, 0.0_real64, c, 8)
#endif
  print '(2i4)', stat32, stat64
end program integer_kinds
