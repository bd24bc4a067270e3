!> Example 1 of the CUDA Fortran tensor-core article: C(8x8) = A(8x4) B(4x8), computed by one warp
!> with one FP64 8x8x4 tensor-core (WMMA) tile: load A and B, one mma, store C.
!>
!> Usage: tcgemm-fortran-example-ex1_single
program ex1_single
  use, intrinsic :: iso_fortran_env, only: real64
  use tcgemm
  use example_util, only: random_matrix, product_ok, print_device, print_result
  implicit none

  ! The matrices are exactly one WMMA tile each.
  integer, parameter :: wmma_m = 8, wmma_n = 8, wmma_k = 4
  integer, parameter :: m = wmma_m, n = wmma_n, k = wmma_k

  real(real64) :: a(m, k), b(k, n), c(m, n)
  type(tcgemm_device_matrix) :: a_d, b_d, c_d
  type(tcgemm_device_info) :: info
  type(tcgemm_config) :: config
  integer :: threads

  call print_device(info)
  call tcgemm_default_config(TCGEMM_FAMILY_SINGLE, config)
  call tcgemm_config_threads_per_block(config, threads)
  write (*, '(a,i0,a,i0,a,i0)') ' M = ', m, ', N = ', n, ', K = ', k
  write (*, '(a,i0,a)') ' thread block = ', threads, 'x1x1'
  write (*, '(a)') ' grid = 1x1x1'

  call random_matrix(a)
  call random_matrix(b)
  call tcgemm_device_allocate(a_d, source=a)     ! device copy of a
  call tcgemm_device_allocate(b_d, source=b)
  call tcgemm_device_allocate(c_d, mold=c)       ! shape of c, contents undefined

  call tcgemm_dmma_single(a_d, b_d, c_d)
  call tcgemm_copy(c_d, c)                       ! waits for the kernel (default stream)

  call print_result(product_ok(a, b, c))
  call tcgemm_device_deallocate(a_d)
  call tcgemm_device_deallocate(b_d)
  call tcgemm_device_deallocate(c_d)
end program ex1_single
