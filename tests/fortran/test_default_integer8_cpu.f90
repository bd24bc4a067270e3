!> A caller compiled with -fdefault-integer-8 (module tcgemm itself is not): default integers,
!> so sizes, `stat` and literals, are int64. Every call below must compile against the module's
!> generics and behave as it does for default-integer callers. Runs with or without a GPU:
!> calls that pass every check stop at the device gate without one (TCGEMM_ERROR_NO_DEVICE).
!>
!> Standalone on purpose: module test_support is compiled without the flag, and its logical
!> arguments would not match this program's (8-byte) default logicals.
program test_default_integer8_cpu
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_loc, c_associated
  use tcgemm
  implicit none

  integer :: failures = 0
  real(real64), target :: storage(64)

  call test_flag_is_in_effect()
  call test_host_dgemm()
  call test_device_forms()
  call test_streams()
  if (failures > 0) then
    print '(i0,a)', failures, ' check(s) failed'
    error stop 1
  end if
  print '(a)', 'all checks passed'

contains

  subroutine expect(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (condition) then
      print '(a,a)', '  ok    ', what
    else
      failures = failures + 1
      print '(a,a)', '  FAIL  ', what
    end if
  end subroutine expect

  !> Without the flag every other check below would test the default-integer specifics.
  subroutine test_flag_is_in_effect()
    integer :: stat
    call expect(kind(stat) == int64 .and. kind(1) == int64, 'default integer is int64 here')
  end subroutine test_flag_is_in_effect

  subroutine test_host_dgemm()
    real(real64) :: a(12, 9), b(9, 11), c(13, 10), c0(13, 10), work(108)
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'host-array tcgemm_dgemm, int64 sizes and stat'
    call random_number(a)
    call random_number(b)
    call random_number(c0)
    c = c0
    errmsg = ''
    call tcgemm_dgemm('N', 'N', 5, 4, 4, 1.0_real64, a(2, 3), 12, b(4, 1), 9, 1.0_real64, &
                      c(3, 2), 13, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .or. stat == TCGEMM_ERROR_NO_DEVICE, &
                'elements with stat: accepted ' // trim(errmsg))
    if (stat == 0) call expect(all(abs(c(3:7, 2:5) - (matmul(a(2:6, 3:6), b(4:7, 1:4)) + &
                                   c0(3:7, 2:5))) <= 1.0e-12_real64), 'elements: the block of C')
    if (stat /= 0) call expect(all(c == c0), 'elements: C untouched (not run)')

    work = reshape(a, [108])
    c = c0
    call tcgemm_dgemm('T', 'N', 9, 10, 4, 1.0_real64, work, 12, b(1, 1), 9, 0.0_real64, c, 13, &
                      stat, errmsg)
    call expect(stat == 0 .or. stat == TCGEMM_ERROR_NO_DEVICE, &
                'rank 1, element, rank 2 with positional stat: accepted ' // trim(errmsg))

    call tcgemm_dgemm('N', 'N', 5, 4, 4, 1.0_real64, a(2:, 3:), 12, b, 9, 1.0_real64, c, 13, &
                      stat=stat, errmsg=errmsg)
    call expect(stat == TCGEMM_ERROR_INVALID_ARGUMENT .and. &
                index(errmsg, 'argument 7 (a) is a non-contiguous') > 0, &
                'non-contiguous a(2:, 3:): named error in an int64 stat')
    call expect(tcgemm_last_error_argument() == 7, 'non-contiguous: argument 7')

    call tcgemm_dgemm('N', 'N', 13, 4, 4, 1.0_real64, a, 12, b, 9, 1.0_real64, c, 13, stat=stat)
    call expect(stat == TCGEMM_ERROR_INVALID_ARGUMENT .and. tcgemm_last_error_argument() == 8, &
                'lda < m: the library''s error, argument 8')

    ! A quick return without stat must simply return.
    call tcgemm_dgemm('N', 'N', 0, 4, 4, 1.0_real64, a, 12, b, 9, 1.0_real64, c, 13)
    call expect(.true., 'm = 0 without stat returns')
  end subroutine test_host_dgemm

  !> Device-matrix forms on handles over host memory: each call is rejected before the GPU.
  subroutine test_device_forms()
    type(tcgemm_device_matrix) :: a_d, b_d, c_d, v
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'device matrices and views, int64 stat'
    a_d = tcgemm_device_matrix(c_loc(storage), 8, 4, 8)
    b_d = tcgemm_device_matrix(c_loc(storage), 5, 8, 5)
    c_d = tcgemm_device_matrix(c_loc(storage), 8, 8, 8)
    call tcgemm_dgemm('N', 'N', 1.0_real64, a_d, b_d, 0.0_real64, c_d, stat=stat, errmsg=errmsg)
    call expect(stat == TCGEMM_ERROR_INVALID_ARGUMENT .and. index(errmsg, 'op(B) is 5x8') > 0, &
                'device tcgemm_dgemm: shape error in an int64 stat')

    v = tcgemm_device_view(a_d, 2, 2, 7, 3, stat=stat)
    call expect(stat == 0 .and. v%rows == 7 .and. v%cols == 3 .and. v%ld == 8 .and. v%is_view &
                .and. c_associated(v%ptr, c_loc(storage(8 + 2))), 'view with int64 indices and stat')
    v = tcgemm_device_view(a_d, 2, 2, 8, 3, stat, errmsg)
    call expect(stat == TCGEMM_ERROR_INVALID_ARGUMENT .and. index(errmsg, 'argument 4 (rows)') > 0 &
                .and. .not. c_associated(v%ptr), 'view leaving its parent: named error')
  end subroutine test_device_forms

  subroutine test_streams()
    type(c_ptr) :: stream
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'streams, int64 stat'
    errmsg = ''
    call tcgemm_stream_create(stream, stat, errmsg)
    if (stat == 0) then
      call expect(c_associated(stream), 'stream_create: a stream')
      call tcgemm_stream_synchronize(stream, stat=stat)
      call expect(stat == 0, 'stream_synchronize: stat 0')
      call tcgemm_stream_destroy(stream, stat=stat)
      call expect(stat == 0 .and. .not. c_associated(stream), 'stream_destroy: stat 0, stream null')
    else
      call expect(stat == TCGEMM_ERROR_NO_DEVICE .and. .not. c_associated(stream), &
                  'stream_create without a GPU: NO_DEVICE, null stream ' // trim(errmsg))
    end if
    stream = c_null_ptr
    call tcgemm_stream_destroy(stream, stat)
    call expect(stat == 0, 'stream_destroy of a null stream: a no-op')
  end subroutine test_streams

end program test_default_integer8_cpu
