!> Example 3 of the CUDA Fortran tensor-core article: C = A B with one warp per thread block and one
!> 8x8 tile of C per block, so a 16x16 C takes a 2x2 grid of one-warp blocks. Correct for any
!> size, but 32-thread blocks leave most of each SM idle (Example 4 fixes that).
!>
!> Usage: tcgemm-fortran-example-ex3_warp_per_block [M N K]     (default 16 16 16)
program ex3_warp_per_block
  use, intrinsic :: iso_fortran_env, only: real64
  use tcgemm
  use example_util, only: int_arg, random_matrix, product_ok, print_device, print_result
  implicit none

  integer, parameter :: wmma_m = 8, wmma_n = 8
  integer :: m, n, k, threads
  real(real64), allocatable :: a(:, :), b(:, :), c(:, :)
  type(tcgemm_device_matrix) :: a_d, b_d, c_d
  type(tcgemm_device_info) :: info
  type(tcgemm_config) :: config

  m = int_arg(1, 16)
  n = int_arg(2, 16)
  k = int_arg(3, 16)
  allocate(a(m, k), b(k, n), c(m, n))

  call print_device(info)
  call tcgemm_default_config(TCGEMM_FAMILY_WARP_PER_BLOCK, config)
  call tcgemm_config_threads_per_block(config, threads)
  write (*, '(a,i0,a,i0,a,i0)') ' M = ', m, ', N = ', n, ', K = ', k
  write (*, '(a,i0,a)') ' thread block = ', threads, 'x1x1'
  write (*, '(a,i0,a,i0,a)') ' grid = ', (m + wmma_m - 1) / wmma_m, 'x', &
                             (n + wmma_n - 1) / wmma_n, 'x1'

  call random_matrix(a)
  call random_matrix(b)
  call tcgemm_device_allocate(a_d, source=a)
  call tcgemm_device_allocate(b_d, source=b)
  call tcgemm_device_allocate(c_d, mold=c)

  call tcgemm_dmma_warp_per_block(a_d, b_d, c_d)
  call tcgemm_copy(c_d, c)

  call print_result(product_ok(a, b, c))
  call tcgemm_device_deallocate(a_d)
  call tcgemm_device_deallocate(b_d)
  call tcgemm_device_deallocate(c_d)
end program ex3_warp_per_block
