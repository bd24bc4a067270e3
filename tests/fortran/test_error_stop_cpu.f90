!> Without `stat`, a failing tcgemm call must end the program with ERROR STOP and the library's
!> message (as ALLOCATE does). Each case below makes one such call; expect_error_stop.cmake runs
!> it and checks the exit code and the message. A case that returns is a failure.
!>
!> Usage: test_error_stop_cpu <case>
program test_error_stop_cpu
  use, intrinsic :: iso_fortran_env, only: real64, error_unit
  use, intrinsic :: iso_c_binding, only: c_loc
  use tcgemm
  implicit none

  real(real64), target :: storage(64)
  real(real64) :: a(4, 4), b(4, 4), c(4, 4)
  type(tcgemm_device_matrix) :: a_d, b_d, c_d
  character(len=64) :: which
  character(len=256) :: errmsg

  call get_command_argument(1, which)
  a = 1.0_real64
  b = 1.0_real64
  c = 1.0_real64
  ! Handles over host memory: every call below is rejected before the GPU is touched.
  a_d = tcgemm_device_matrix(c_loc(storage), 40, 12, 40)
  b_d = tcgemm_device_matrix(c_loc(storage), 12, 24, 12)
  c_d = tcgemm_device_matrix(c_loc(storage), 40, 24, 40)

  select case (which)
  case ('host_dgemm_lda')
    call tcgemm_dgemm('N', 'N', 4, 4, 4, 1.0_real64, a, 3, b, 4, 0.0_real64, c, 4)
  case ('host_non_contiguous')
    ! The sub-matrix written as a section: rejected by name (with the remedy), never copied.
    call tcgemm_dgemm('N', 'N', 2, 2, 2, 1.0_real64, a(2:, 2:), 4, b, 4, 0.0_real64, c, 4)
  case ('view_outside')
    block
      type(tcgemm_device_matrix) :: v
      v = tcgemm_device_view(a_d, 35, 1, 10, 12)
    end block
  case ('errmsg_without_stat')
    ! errmsg alone does not catch the error: like ALLOCATE, only stat does.
    call tcgemm_dgemm('N', 'N', 4, 4, -4, 1.0_real64, a, 4, b, 4, 0.0_real64, c, 4, errmsg=errmsg)
  case ('shared_a_pad')
    call tcgemm_dmma_shared_a(a_d, b_d, c_d, tile_m=32, pad_a=3)
  case ('shape')
    call tcgemm_dgemm('T', 'N', 1.0_real64, a_d, b_d, 0.0_real64, c_d)
  case ('allocate_ld')
    block
      type(tcgemm_device_matrix) :: d
      call tcgemm_device_allocate(d, 5, 3, ld=4)
    end block
  case ('allocate_source_ld')
    block
      type(tcgemm_device_matrix) :: d
      call tcgemm_device_allocate(d, source=a, ld=2)
    end block
  case ('batched_device_count')
    block
      type(tcgemm_device_batch) :: ab, bb, cb
      ab = tcgemm_device_batch(c_loc(storage), 4, 4, 4, 16, 2)
      bb = tcgemm_device_batch(c_loc(storage), 4, 4, 4, 16, 3)
      cb = bb
      call tcgemm_dgemm_batched('N', 'N', 1.0_real64, ab, bb, 0.0_real64, cb)
    end block
  case ('batch_allocate_stride')
    block
      type(tcgemm_device_batch) :: d
      call tcgemm_device_allocate(d, 5, 3, 2, stride=14)
    end block
  case default
    write (error_unit, '(a)') 'unknown case: ' // trim(which)
    stop 2
  end select
  write (error_unit, '(a)') 'the failing call returned instead of stopping'
  stop 3
end program test_error_stop_cpu
