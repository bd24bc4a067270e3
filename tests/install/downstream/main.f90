program hello_tcgemm
  use, intrinsic :: iso_fortran_env, only: real64
  use tcgemm, only: tcgemm_dgemm
  implicit none
  integer, parameter :: m = 300, n = 200, k = 100
  real(real64) :: a(m, k), b(k, n), c(m, n)
  call random_number(a); call random_number(b)
  call tcgemm_dgemm('N', 'N', m, n, k, 1.0_real64, a, m, b, k, 0.0_real64, c, m)
  print '(a, es9.2)', 'max |C - matmul(A, B)| = ', maxval(abs(c - matmul(a, b)))
end program hello_tcgemm
