!> A caller compiled with -fdefault-integer-8 (module tcgemm itself is not): default integers,
!> so sizes, `stat`, literals and every other integer argument, are int64. Every public procedure
!> that takes `stat` is called below with an int64 stat (and, where it has other integer
!> arguments, with int64 ones and with the module's int32 constants), and each call's outcome is
!> checked as it is for default-integer callers. Runs with or without a GPU: calls that pass
!> every check stop at the device gate without one (TCGEMM_ERROR_NO_DEVICE); the others are
!> rejected by validation before any device is needed (device handles over host memory).
!>
!> Standalone on purpose: module test_support is compiled without the flag, and its logical
!> arguments would not match this program's (8-byte) default logicals.
program test_default_integer8_cpu
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_loc, c_associated
  use tcgemm
  implicit none

  integer :: failures = 0
  real(real64), target :: storage(64)
  !> Host storage behind device handles whose calls must be rejected before launch.
  real(real64), target :: fake_storage(64 * 64)
  !> Whether a GPU answers (tcgemm_device_info_get), for calls that pass every check.
  logical :: have_gpu = .false.
  !> A value that fits no 32-bit argument: converting it would have kept its low bits.
  integer, parameter :: TOO_BIG = 2_int64**32

  call test_flag_is_in_effect()
  call test_device_queries()
  call test_host_dgemm()
  call test_device_forms()
  call test_streams()
  call test_allocation()
  call test_copies_and_deallocation()
  call test_real32_device_matrices()
  call test_device_batches()
  call test_synchronize_register_workspace()
  call test_configurations()
  call test_families()
  call test_status_string()
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

  !> `what` passed when the call gave `expected` and its errmsg contains `text`.
  subroutine expect_error(what, stat, expected, errmsg, text)
    character(len=*), intent(in) :: what, errmsg, text
    integer, intent(in) :: stat
    integer(int32), intent(in) :: expected     ! a TCGEMM_* constant (c_int)
    call expect(stat == expected .and. index(errmsg, text) > 0, &
                what // ': ' // tcgemm_status_string(stat) // ' naming "' // text // '"')
    if (stat /= expected .or. index(errmsg, text) == 0) print '(a,a)', '        errmsg: ', trim(errmsg)
  end subroutine expect_error

  !> stat of a call that passed every check: 0 with a GPU, TCGEMM_ERROR_NO_DEVICE without.
  integer function device_outcome()
    device_outcome = TCGEMM_ERROR_NO_DEVICE
    if (have_gpu) device_outcome = TCGEMM_SUCCESS
  end function device_outcome

  !> A device-matrix handle over host memory, for calls that must be rejected before launch.
  function fake(rows, cols, ld) result(d)
    integer, intent(in) :: rows, cols
    integer, intent(in), optional :: ld
    type(tcgemm_device_matrix) :: d
    d = tcgemm_device_matrix(c_loc(fake_storage), rows, cols, max(1, rows))
    if (present(ld)) d%ld = ld
  end function fake

  !> Without the flag every other check below would test the default-integer specifics.
  subroutine test_flag_is_in_effect()
    integer :: stat
    call expect(kind(stat) == int64 .and. kind(1) == int64, 'default integer is int64 here')
  end subroutine test_flag_is_in_effect

  !> tcgemm_device_info_get decides have_gpu; device numbers of either kind, and one too big.
  subroutine test_device_queries()
    type(tcgemm_device_info) :: info
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'device_info_get, int64 stat and device'
    errmsg = ''
    call tcgemm_device_info_get(info, stat=stat, errmsg=errmsg)
    call expect(stat == TCGEMM_SUCCESS .or. stat == TCGEMM_ERROR_NO_DEVICE, &
                'device_info_get: stat 0, or NO_DEVICE without a GPU ' // trim(errmsg))
    have_gpu = stat == TCGEMM_SUCCESS
    print '(a,l1)', '  a GPU answers: ', have_gpu
    stat = -1
    call tcgemm_device_info_get(info, -1, stat)
    call expect(stat == device_outcome(), 'device_info_get(device = -1 (int64), stat)')
    stat = -1
    call tcgemm_device_info_get(info, int(-1, int32), stat)
    call expect(stat == device_outcome(), 'device_info_get(device = -1 (int32), stat)')
    call tcgemm_device_info_get(info, device=TOO_BIG, stat=stat, errmsg=errmsg)
    call expect_error('device_info_get(device = 2**32)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'device = 4294967296 does not fit')
  end subroutine test_device_queries

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

  !> tcgemm_device_allocate, every form: sizes, ld and stat of the caller's kind (int64).
  subroutine test_allocation()
    type(tcgemm_device_matrix) :: d, empty
    real(real64) :: host(4, 3), no_rows(0, 5)
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'tcgemm_device_allocate, int64 sizes, ld and stat'
    host = 1.0_real64
    call tcgemm_device_allocate(d, 5, 3, ld=4, stat=stat, errmsg=errmsg)
    call expect_error('rows, cols, ld = 4 < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'ld = 4 must be >= max(1, rows) = 5')
    call expect(logical(.not. tcgemm_device_allocated(d)), 'ld < rows: nothing allocated')
    call tcgemm_device_allocate(d, -1_int32, 3_int32, stat=stat, errmsg=errmsg)
    call expect_error('int32 rows = -1, int64 stat', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'rows = -1 and cols = 3 must be >= 0')
    stat = -1
    call tcgemm_device_allocate(empty, 0, 7, ld=2, stat=stat)
    call expect(stat == 0 .and. empty%rows == 0 .and. empty%cols == 7 .and. empty%ld == 2, &
                'rows, cols, ld: 0 x 7 with ld = 2 needs no GPU')

    call tcgemm_device_allocate(d, source=host, ld=2, stat=stat, errmsg=errmsg)
    call expect_error('source=, int64 ld = 2 < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'ld = 2 must be >= max(1, rows) = 4')
    call tcgemm_device_allocate(d, mold=host, ld=3_int32, stat=stat, errmsg=errmsg)
    call expect_error('mold=, int32 ld = 3 < rows, int64 stat', stat, &
                      TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, 'ld = 3 must be >= max(1, rows) = 4')
    call tcgemm_device_allocate(d, stat=stat, errmsg=errmsg)
    call expect_error('neither source= nor mold=', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'exactly one of source= and mold=')
    call expect(logical(.not. tcgemm_device_allocated(d)), 'rejected source=/mold=: nothing allocated')

    ! Zero-size arrays need no GPU: ld absent (rows of the array, at least 1) or given.
    stat = -1
    call tcgemm_device_allocate(empty, source=no_rows, stat=stat)
    call expect(stat == 0 .and. empty%rows == 0 .and. empty%cols == 5 .and. empty%ld == 1, &
                'source= 0 x 5, no ld, int64 stat: ld = 1')
    empty = tcgemm_device_matrix()
    call tcgemm_device_allocate(empty, mold=no_rows, ld=3)
    call expect(empty%cols == 5 .and. empty%ld == 3, 'mold= 0 x 5, int64 ld = 3, no stat')
    empty = tcgemm_device_matrix()
    call tcgemm_device_allocate(empty, mold=no_rows)
    call expect(empty%cols == 5 .and. empty%ld == 1, 'mold= 0 x 5, no ld, no stat: ld = 1')

    ! A real allocation: NO_DEVICE without a GPU, memory with one.
    stat = -1
    errmsg = ''
    call tcgemm_device_allocate(d, mold=host, stat=stat, errmsg=errmsg)
    call expect(stat == device_outcome() .and. tcgemm_device_allocated(d) .eqv. have_gpu, &
                'mold= 4 x 3: NO_DEVICE without a GPU, memory with one ' // trim(errmsg))
    if (have_gpu) then
      call tcgemm_device_allocate(d, 5, 3, stat=stat, errmsg=errmsg)
      call expect_error('allocate an allocated matrix', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                        errmsg, 'already allocated')
      stat = -1
      call tcgemm_device_deallocate(d, stat=stat)
      call expect(stat == 0 .and. .not. tcgemm_device_allocated(d), 'deallocate: memory freed')
    else
      d = fake(5, 3)
      call tcgemm_device_allocate(d, 5, 3, stat=stat, errmsg=errmsg)
      call expect_error('allocate an allocated matrix', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                        errmsg, 'already allocated')
    end if
  end subroutine test_allocation

  subroutine test_copies_and_deallocation()
    type(tcgemm_device_matrix) :: d, v, empty
    real(real64) :: wrong(4, 3), none(0, 7)
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'tcgemm_copy and tcgemm_device_deallocate, int64 stat'
    d = fake(5, 3)
    wrong = 2.0_real64
    call tcgemm_copy(wrong, d, stat=stat, errmsg=errmsg)
    call expect_error('upload 4x3 to 5x3', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'tcgemm_copy (host to device)')
    call tcgemm_copy(d, wrong, stat, errmsg)
    call expect_error('download 5x3 to 4x3 (positional stat)', stat, &
                      TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, 'host array is 4x3')
    call expect(all(wrong == 2.0_real64), 'rejected download leaves the host array alone')
    empty = fake(0, 7)
    stat = -1
    call tcgemm_copy(none, empty, stat=stat)
    call expect(stat == 0, 'upload of an empty matrix: stat 0')
    stat = -1
    call tcgemm_copy(empty, none, stat=stat)
    call expect(stat == 0, 'download of an empty matrix: stat 0')

    ! A view owns nothing: deallocating it frees nothing (no GPU needed) and empties the handle.
    v = tcgemm_device_view(d, 2, 1, 3, 3, stat=stat)
    call expect(stat == 0 .and. v%is_view, 'a view of the handle')
    stat = -1
    call tcgemm_device_deallocate(v, stat=stat, errmsg=errmsg)
    call expect(stat == 0 .and. .not. tcgemm_device_allocated(v) .and. v%rows == 0, &
                'deallocate a view: stat 0, handle emptied')
    stat = -1
    call tcgemm_device_deallocate(v, stat)
    call expect(stat == 0, 'deallocate an empty handle (positional stat): a no-op')
  end subroutine test_copies_and_deallocation

  !> The real(real32) device matrices and tcgemm_sgemm's device form: the same generics, with
  !> int64 sizes, indices, ld and stat; handles over host memory, rejected before the GPU.
  subroutine test_real32_device_matrices()
    real(real32), target :: store32(64)
    real(real32) :: host(4, 3), wrong(4, 2)
    type(tcgemm_device_matrix_r32) :: a_d, b_d, c_d, v, d
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'real(real32) device matrices and device tcgemm_sgemm, int64 stat'
    a_d = tcgemm_device_matrix_r32(c_loc(store32), 8, 4, 8)
    b_d = tcgemm_device_matrix_r32(c_loc(store32), 5, 8, 5)
    c_d = tcgemm_device_matrix_r32(c_loc(store32), 8, 8, 8)
    call tcgemm_sgemm('N', 'N', 1.0, a_d, b_d, 0.0, c_d, TCGEMM_PRECISION_TF32, stat=stat, &
                      errmsg=errmsg)
    call expect_error('device tcgemm_sgemm shapes', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'op(B) is 5x8')
    v = tcgemm_device_view(a_d, 2, 2, 7, 3, stat=stat)
    call expect(stat == 0 .and. v%is_view .and. c_associated(v%ptr, c_loc(store32(8 + 2))), &
                'real32 view with int64 indices and stat')
    v = tcgemm_device_view(a_d, 2_int32, 2_int32, 7_int32, 3_int32, stat=stat)
    call expect(stat == 0 .and. v%rows == 7, 'real32 view with int32 indices, int64 stat')
    call tcgemm_device_allocate(d, 5, 3, ld=4, stat=stat, errmsg=errmsg)
    call expect_error('real32 allocate ld < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'ld = 4')
    call tcgemm_device_allocate(d, -1_int32, 3_int32, stat=stat, errmsg=errmsg)
    call expect_error('real32 allocate int32 rows < 0', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'rows = -1')
    call tcgemm_device_allocate(d, source=host, ld=2, stat=stat, errmsg=errmsg)
    call expect_error('real32 source= with int64 ld < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'ld = 2')
    call tcgemm_device_allocate(d, mold=host, ld=3_int32, stat=stat, errmsg=errmsg)
    call expect_error('real32 mold= with int32 ld < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'ld = 3')
    d = tcgemm_device_matrix_r32(c_loc(store32), 4, 3, 4)
    wrong = 1.0
    call tcgemm_copy(wrong, d, stat=stat, errmsg=errmsg)
    call expect_error('real32 upload 4x2 to 4x3', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'host array is 4x2')
    call tcgemm_copy(d, wrong, stat, errmsg)
    call expect_error('real32 download 4x3 to 4x2', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'host array is 4x2')
    stat = -1
    call tcgemm_device_deallocate(v, stat=stat)
    call expect(stat == 0 .and. .not. tcgemm_device_allocated(v), 'real32 deallocate a view')
  end subroutine test_real32_device_matrices

  !> Batches of device matrices and the device form of tcgemm_dgemm_batched: sizes, ld, stride
  !> and stat of the caller's kind (and int32 sizes or ld with an int64 stat); refused calls get
  !> handles over host memory, calls that pass get real (or empty) batches.
  subroutine test_device_batches()
    type(tcgemm_device_batch) :: a, b, c, d, empty
    type(tcgemm_device_matrix) :: shared
    real(real64) :: host(4, 3, 2), wrong(4, 3, 3)
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'device batches and the device tcgemm_dgemm_batched, int64 stat'
    host = 1.0_real64
    call tcgemm_device_allocate(d, 5, 3, 2, ld=4, stat=stat, errmsg=errmsg)
    call expect_error('batch rows, cols, count, ld = 4 < rows', stat, &
                      TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, 'ld = 4 must be >= max(1, rows) = 5')
    call tcgemm_device_allocate(d, 4_int32, 3_int32, -1_int32, stat=stat, errmsg=errmsg)
    call expect_error('batch int32 count = -1, int64 stat', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'count = -1 must be >= 0')
    call tcgemm_device_allocate(d, 5, 3, 2, stride=14, stat=stat, errmsg=errmsg)
    call expect_error('batch stride = 14 < ld * cols', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'stride = 14 must be >= ld * cols = 15')
    call tcgemm_device_allocate(d, source=host, ld=3, stat=stat, errmsg=errmsg)
    call expect_error('batch source=, int64 ld = 3 < rows', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'ld = 3 must be >= max(1, rows) = 4')
    call tcgemm_device_allocate(d, mold=host, ld=2_int32, stat=stat, errmsg=errmsg)
    call expect_error('batch mold=, int32 ld = 2, int64 stat', stat, &
                      TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, 'ld = 2 must be >= max(1, rows) = 4')
    call expect(logical(.not. tcgemm_device_allocated(d)), 'refused batches: nothing allocated')

    ! Empty batches need no GPU: int64 ld and stride without stat, int32 sizes with an int64 stat.
    call tcgemm_device_allocate(empty, 4, 3, 0, ld=6, stride=20)
    call expect(empty%ld == 6 .and. empty%stride == 20 .and. empty%count == 0, &
                'batch 4x3 x 0, int64 ld and stride, no stat')
    call tcgemm_device_deallocate(empty, stat)
    stat = -1
    call tcgemm_device_allocate(empty, 0_int32, 3_int32, 5_int32, 2_int32, stat=stat)
    call expect(stat == 0 .and. empty%ld == 2 .and. empty%stride == 6, &
                'batch 0x3 x 5, int32 sizes and ld, int64 stat')
    call tcgemm_device_deallocate(empty, stat=stat)
    call expect(stat == 0, 'deallocate an empty batch, int64 stat')
    stat = -1
    call tcgemm_device_allocate(d, mold=host, stat=stat, errmsg=errmsg)
    call expect(stat == device_outcome() .and. tcgemm_device_allocated(d) .eqv. have_gpu, &
                'batch mold= 4x3x2: NO_DEVICE without a GPU, memory with one ' // trim(errmsg))
    call tcgemm_device_deallocate(d, stat=stat)
    call expect(stat == 0, 'deallocate it, int64 stat')

    ! Copies and products refused before the GPU (handles over host memory).
    d = tcgemm_device_batch(c_loc(fake_storage), 4, 3, 4, 12, 2)
    call tcgemm_copy(wrong, d, stat=stat, errmsg=errmsg)
    call expect_error('batch upload 4x3x3 to 4x3 x 2', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'host array is 4x3x3')
    call tcgemm_copy(d, wrong, stat, errmsg)
    call expect_error('batch download, positional stat', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'host array is 4x3x3')
    a = tcgemm_device_batch(c_loc(fake_storage), 4, 4, 4, 16, 2)
    b = tcgemm_device_batch(c_loc(fake_storage), 4, 4, 4, 16, 3)
    c = b
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_error('batched: a holds 2, c 3', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'argument 4 (a): the batch holds 2 matrices, c 3')
    call expect(tcgemm_last_error_argument() == 4, 'batched count of a: argument 4')
    shared = tcgemm_device_matrix(c_loc(fake_storage), 4, 5, 4)
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, shared, b, 0.0_real64, c, c_null_ptr, stat, &
                              errmsg)
    call expect_error('batched: shared a 4x5, positional stream and stat', stat, &
                      TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, 'op(A) is 4x5')
    call tcgemm_dgemm_batched('N', 'T', 1.0_real64, b, shared, 0.0_real64, c, stat=stat, &
                              errmsg=errmsg)
    call expect_error('batched: shared b 4x5', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'op(B) is 5x4')
    call tcgemm_dgemm_batched('Z', 'N', 1.0_real64, b, b, 0.0_real64, c, stat=stat, errmsg=errmsg)
    call expect_error('batched: transa = Z', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'argument 1 (transa)')
    ! A batch of 0 matrices returns without a GPU, stat or not.
    stat = -1
    call tcgemm_device_allocate(empty, 4, 4, 0)
    call tcgemm_dgemm_batched('T', 'N', 1.0_real64, empty, empty, 0.0_real64, empty, stat=stat)
    call expect(stat == 0, 'batched: 0 matrices, int64 stat')
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, empty, empty, 1.0_real64, empty)
    call expect(.true., 'batched: 0 matrices without stat returns')
  end subroutine test_device_batches

  subroutine test_synchronize_register_workspace()
    real(real64), target :: x(16), y(4, 4)
    integer :: stat, expected
    character(len=512) :: errmsg

    print '(a)', 'synchronize, host_register/unregister, release_workspace, int64 stat'
    ! The default stream: 0 with a GPU; without one the wait's own CUDA error, reported as NO_DEVICE.
    expected = TCGEMM_ERROR_NO_DEVICE
    if (have_gpu) expected = TCGEMM_SUCCESS
    stat = -1
    errmsg = ''
    call tcgemm_synchronize(stat=stat, errmsg=errmsg)
    call expect(stat == expected .and. (have_gpu .or. index(errmsg, 'tcgemm_synchronize') > 0), &
                'synchronize: ' // tcgemm_status_string(stat) // ' ' // trim(errmsg))
    stat = -1
    call tcgemm_synchronize(c_null_ptr, stat)
    call expect(stat == expected, 'synchronize(c_null_ptr, stat): ' // tcgemm_status_string(stat))

    x = 0.0_real64
    y = 0.0_real64
    stat = -1
    errmsg = ''
    call tcgemm_host_register(x, stat=stat, errmsg=errmsg)
    call expect(stat == device_outcome() .and. (have_gpu .or. index(errmsg, 'tcgemm_host_register') > 0), &
                'host_register rank 1: ' // tcgemm_status_string(stat))
    stat = -1
    call tcgemm_host_register(y, stat)
    call expect(stat == device_outcome(), 'host_register rank 2: ' // tcgemm_status_string(stat))
    stat = -1
    errmsg = ''
    call tcgemm_host_unregister(x, stat=stat, errmsg=errmsg)
    call expect(stat == device_outcome() .and. (have_gpu .or. index(errmsg, 'tcgemm_host_unregister') > 0), &
                'host_unregister rank 1: ' // tcgemm_status_string(stat))
    stat = -1
    call tcgemm_host_unregister(y, stat)
    call expect(stat == device_outcome(), 'host_unregister rank 2: ' // tcgemm_status_string(stat))

    ! Nothing to return without a GPU, and stat 0 either way.
    stat = -1
    call tcgemm_release_workspace(stat=stat)
    call expect(stat == 0, 'release_workspace: stat 0')
    stat = -1
    call tcgemm_release_workspace(stat, errmsg)
    call expect(stat == 0, 'release_workspace(stat, errmsg): stat 0')
  end subroutine test_synchronize_register_workspace

  subroutine test_configurations()
    type(tcgemm_config) :: config, bad
    type(tcgemm_plan) :: plan
    type(tcgemm_device_matrix) :: a, b, c
    integer :: stat, threads
    integer(int32) :: threads32
    integer(int64) :: bytes
    character(len=512) :: errmsg

    print '(a)', 'configurations and plans, int64 stat and integer arguments'
    call tcgemm_default_config(42, config, stat=stat, errmsg=errmsg)
    call expect_error('default_config(family = 42)', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                      'family=42')
    call tcgemm_default_config(TOO_BIG + TCGEMM_FAMILY_SHARED_AB, config, stat, errmsg)
    call expect_error('default_config(family = 2**32 + 7)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'family = 4294967303 does not fit')
    stat = -1
    call tcgemm_default_config(TCGEMM_FAMILY_SHARED_AB, config, stat=stat)
    call expect(stat == 0 .and. config%family == TCGEMM_FAMILY_SHARED_AB .and. config%tile_m > 0, &
                'default_config(TCGEMM_FAMILY_SHARED_AB (int32), int64 stat)')
    call tcgemm_default_config(6, bad)
    call expect(bad%family == TCGEMM_FAMILY_SHARED_A, 'default_config(family = 6 (int64)), no stat')

    stat = -1
    call tcgemm_config_validate(config, stat=stat)
    call expect(stat == 0, 'config_validate accepts the default')
    stat = -1
    call tcgemm_config_threads_per_block(config, threads, stat=stat)
    call expect(stat == 0 .and. threads == config%tile_m / 8 * 32, &
                'threads_per_block into an int64, int64 stat')
    threads = 0
    call tcgemm_config_threads_per_block(config, threads)
    call expect(threads == config%tile_m / 8 * 32, 'threads_per_block into an int64, no stat')
    stat = -1
    call tcgemm_config_threads_per_block(config, threads32, stat)
    call expect(stat == 0 .and. threads32 == config%tile_m / 8 * 32, &
                'threads_per_block into an int32, int64 stat')
    stat = -1
    call tcgemm_config_shared_memory_bytes(config, bytes, stat=stat)
    call expect(stat == 0 .and. bytes > 0, 'shared_memory_bytes, int64 stat')

    bad = config
    bad%k_splits = 4
    call tcgemm_config_validate(bad, stat=stat, errmsg=errmsg)
    call expect_error('config_validate k_splits = 4', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                      'k_splits=4')
    bad = tcgemm_config(family=TCGEMM_FAMILY_SHARED_A, pad_a=7)
    call tcgemm_config_shared_memory_bytes(bad, bytes, stat, errmsg)
    call expect_error('shared_memory_bytes pad_a = 7', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                      'pad_a=7')
    call tcgemm_config_threads_per_block(bad, threads, stat=stat, errmsg=errmsg)
    call expect_error('threads_per_block pad_a = 7', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                      'pad_a=7')
    call tcgemm_config_check_device(bad, stat=stat, errmsg=errmsg)
    call expect_error('check_device validates first', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                      'pad_a=7')
    call tcgemm_config_check_device(bad, 0, stat, errmsg)
    call expect_error('check_device(device = 0 (int64))', stat, TCGEMM_ERROR_INVALID_CONFIG, &
                      errmsg, 'pad_a=7')
    call tcgemm_config_check_device(bad, int(0, int32), stat, errmsg)
    call expect_error('check_device(device = 0 (int32))', stat, TCGEMM_ERROR_INVALID_CONFIG, &
                      errmsg, 'pad_a=7')
    call tcgemm_config_check_device(config, device=TOO_BIG, stat=stat, errmsg=errmsg)
    call expect_error('check_device(device = 2**32)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'device = 4294967296 does not fit')
    if (.not. have_gpu) then
      call tcgemm_config_check_device(config, stat=stat, errmsg=errmsg)
      call expect_error('check_device without a GPU', stat, TCGEMM_ERROR_NO_DEVICE, errmsg, &
                        'tcgemm_config_check_device')
    end if

    stat = -1
    call tcgemm_dgemm_select_config(bad, stat=stat)
    call expect(stat == device_outcome(), 'dgemm_select_config, int64 stat: ' // &
                tcgemm_status_string(stat))
    stat = -1
    call tcgemm_dgemm_select_config(bad, int(-1, int32), stat)
    call expect(stat == device_outcome(), 'dgemm_select_config(device = -1 (int32), int64 stat)')
    call tcgemm_dgemm_select_config(bad, TOO_BIG, stat, errmsg)
    call expect_error('dgemm_select_config(device = 2**32)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'device = 4294967296 does not fit')

    call tcgemm_dgemm_plan('X', 'N', 10, 6, 5, plan, stat=stat, errmsg=errmsg)
    call expect_error('dgemm_plan transa = X', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'argument 1 (transa)')
    call tcgemm_dgemm_plan('N', 'N', 10_int32, -6_int32, 5_int32, plan, stat, errmsg)
    call expect_error('dgemm_plan int32 n = -6, int64 stat', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'argument 4 (n)')

    a = fake(10, 5)
    b = fake(5, 6)
    c = fake(10, 6, ld=7)
    call tcgemm_dgemm_config(config, 'N', 'N', 1.0_real64, a, b, 0.0_real64, c, stat=stat, &
                             errmsg=errmsg)
    call expect_error('dgemm_config ldc < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, '(ldc)')
  end subroutine test_configurations

  !> The family calls: tile, padding and niter arguments as int64 (and int32), rejected by the
  !> library's rules or, beyond 32 bits, by the module; empty products return without a GPU.
  subroutine test_families()
    type(tcgemm_device_matrix) :: a, b, c
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'family calls, int64 stat and integer arguments'
    a = fake(8, 3)
    b = fake(4, 8)
    c = fake(8, 8)
    call tcgemm_dmma_single(a, b, c, stat=stat, errmsg=errmsg)
    call expect_error('single A 8x3', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'A is 8x3, must be 8x4')
    a = fake(8, 12)
    b = fake(12, 8, ld=11)
    call tcgemm_dmma_row(a, b, c, c_null_ptr, stat, errmsg)
    call expect_error('row ldb < k (positional stream, stat)', stat, &
                      TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, 'ldb=11')
    a = fake(37, 13, ld=30)
    b = fake(13, 29)
    c = fake(37, 29)
    call tcgemm_dmma_warp_per_block(a, b, c, stat=stat, errmsg=errmsg)
    call expect_error('warp_per_block lda < m', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'lda=30')

    a = fake(40, 12)
    b = fake(12, 24)
    c = fake(40, 24)
    call tcgemm_dmma_block_tile(a, b, c, tile_m=12, tile_n=16, stat=stat, errmsg=errmsg)
    call expect_error('block_tile tile_m = 12', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, &
                      'tile_m=12')
    call tcgemm_dmma_block_tile(a, b, c, 128_int32, 128_int32, stat=stat, errmsg=errmsg)
    call expect_error('block_tile int32 128 x 128, int64 stat', stat, &
                      TCGEMM_ERROR_INVALID_CONFIG, errmsg, '32 warps')
    call tcgemm_dmma_block_tile(a, b, c, TOO_BIG + 16, 16, stat=stat, errmsg=errmsg)
    call expect_error('block_tile tile_m = 2**32 + 16', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'tile_m = 4294967312 does not fit')
    call tcgemm_dmma_shared_a(a, b, c, tile_m=32, pad_a=3, stat=stat, errmsg=errmsg)
    call expect_error('shared_a pad_a = 3', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, 'pad_a=3')
    call tcgemm_dmma_shared_a(a, b, c, 48_int32, 2_int32, stat=stat, errmsg=errmsg)
    call expect_error('shared_a int32 tile_m = 48, int64 stat', stat, &
                      TCGEMM_ERROR_INVALID_CONFIG, errmsg, 'tile_m=48')
    call tcgemm_dmma_shared_a(a, b, c, 32, TOO_BIG + 2, stat=stat, errmsg=errmsg)
    call expect_error('shared_a pad_a = 2**32 + 2', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'pad_a = 4294967298 does not fit')
    call tcgemm_dmma_shared_ab(a, b, c, tile=64, tile_k=32, pad_a=4, pad_b=5, stat=stat, &
                               errmsg=errmsg)
    call expect_error('shared_ab pad_b = 5', stat, TCGEMM_ERROR_INVALID_CONFIG, errmsg, 'pad_b=5')
    call tcgemm_dmma_shared_ab(a, b, c, 64_int32, 30_int32, 4_int32, 4_int32, stat=stat, &
                               errmsg=errmsg)
    call expect_error('shared_ab int32 tile_k = 30, int64 stat', stat, &
                      TCGEMM_ERROR_INVALID_CONFIG, errmsg, 'tile_k=30')
    call tcgemm_dmma_shared_ab(a, b, c, 64, 32, 4, -TOO_BIG, stat=stat, errmsg=errmsg)
    call expect_error('shared_ab pad_b = -2**32', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'pad_b = -4294967296 does not fit')

    a = fake(8, 4)
    b = fake(4, 8)
    c = fake(24, 16)
    call tcgemm_dmma_peak(a, b, c, niter=0, stat=stat, errmsg=errmsg)
    call expect_error('peak niter = 0', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, 'niter=0')
    call tcgemm_dmma_peak(a, b, c, 0_int32, stat=stat, errmsg=errmsg)
    call expect_error('peak int32 niter = 0, int64 stat', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                      errmsg, 'niter=0')
    call tcgemm_dmma_peak(a, b, c, TOO_BIG + 1, stat=stat, errmsg=errmsg)
    call expect_error('peak niter = 2**32 + 1', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                      'niter = 4294967297 does not fit')

    ! Empty products with int64 arguments and no stat: validated, then a quick return.
    a = fake(0, 12)
    b = fake(12, 24)
    c = fake(0, 24)
    call tcgemm_dmma_block_tile(a, b, c, 16, 32)
    call tcgemm_dmma_shared_a(a, b, c, 32, 2)
    call tcgemm_dmma_shared_ab(a, b, c, 64, 32, 4, 4)
    call tcgemm_dmma_peak(fake(8, 4), fake(4, 8), c, 1)
    call expect(.true., 'empty products with int64 tiles and niter, no stat, return')
  end subroutine test_families

  !> tcgemm_status_string takes the int64 stat, and does not truncate one beyond 32 bits.
  subroutine test_status_string()
    print '(a)', 'tcgemm_status_string of an int64 stat'
    call expect(tcgemm_status_string(int(TCGEMM_ERROR_INVALID_CONFIG, int64)) == &
                'TCGEMM_ERROR_INVALID_CONFIG', 'status_string(int64 INVALID_CONFIG)')
    call expect(tcgemm_status_string(TOO_BIG + TCGEMM_ERROR_INVALID_ARGUMENT) == &
                'TCGEMM_ERROR_UNKNOWN_STATUS', 'status_string(2**32 + 1): unknown, not truncated')
  end subroutine test_status_string

end program test_default_integer8_cpu
