!> Example 2 of the CUDA Fortran tensor-core article: C(8x8) = A(8xK) B(Kx8). One warp walks along K
!> in steps of wmma_k = 4, accumulating 8x4 by 4x8 products in one accumulator tile. The library
!> takes any K >= 0 (the article needed a multiple of 4).
!>
!> Usage: tcgemm-fortran-example-ex2_row [K]      (default 16, as in the article)
program ex2_row
  use, intrinsic :: iso_fortran_env, only: real64
  use tcgemm
  use example_util, only: int_arg, random_matrix, product_ok, print_device, print_result
  implicit none

  integer, parameter :: wmma_m = 8, wmma_n = 8
  integer, parameter :: m = wmma_m, n = wmma_n
  integer :: k, threads
  real(real64), allocatable :: a(:, :), b(:, :), c(:, :)
  type(tcgemm_device_matrix) :: a_d, b_d, c_d
  type(tcgemm_device_info) :: info
  type(tcgemm_config) :: config

  k = int_arg(1, 16)
  allocate(a(m, k), b(k, n), c(m, n))

  call print_device(info)
  call tcgemm_default_config(TCGEMM_FAMILY_ROW, config)
  call tcgemm_config_threads_per_block(config, threads)
  write (*, '(a,i0,a,i0,a,i0)') ' M = ', m, ', N = ', n, ', K = ', k
  write (*, '(a,i0,a)') ' thread block = ', threads, 'x1x1'
  write (*, '(a)') ' grid = 1x1x1'

  call random_matrix(a)
  call random_matrix(b)
  call tcgemm_device_allocate(a_d, source=a)
  call tcgemm_device_allocate(b_d, source=b)
  call tcgemm_device_allocate(c_d, mold=c)

  call tcgemm_dmma_row(a_d, b_d, c_d)
  call tcgemm_copy(c_d, c)

  call print_result(product_ok(a, b, c))
  call tcgemm_device_deallocate(a_d)
  call tcgemm_device_deallocate(b_d)
  call tcgemm_device_deallocate(c_d)
end program ex2_row
