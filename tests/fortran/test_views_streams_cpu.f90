!> tcgemm_device_view and the stream helpers without a GPU (and with one): the view's address
!> arithmetic and its checks, that deallocating a view frees nothing, copies that would write
!> around a view, and the streams' error paths. Parent matrices are handles over host memory:
!> nothing here dereferences a device pointer.
program test_views_streams_cpu
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_loc, c_associated
  use tcgemm
  use test_support
  implicit none

  integer, parameter :: MSG_LEN = 512
  !> Host storage behind the fake parent: 12 x 9 with ld = 14.
  integer, parameter :: PARENT_ROWS = 12, PARENT_COLS = 9, PARENT_LD = 14
  real(real64), target :: storage(PARENT_LD * PARENT_COLS)

  call test_view_addresses()
  call test_view_errors()
  call test_view_deallocation()
  call test_view_copies()
  call test_streams()
  call finish_tests()

contains

  function parent() result(p)
    type(tcgemm_device_matrix) :: p
    p = tcgemm_device_matrix(c_loc(storage), PARENT_ROWS, PARENT_COLS, PARENT_LD)
  end function parent

  !> Address of element (i, j) of the parent.
  function element(i, j) result(address)
    integer, intent(in) :: i, j
    type(c_ptr) :: address
    address = c_loc(storage((j - 1) * PARENT_LD + i))
  end function element

  subroutine test_view_addresses()
    type(tcgemm_device_matrix) :: v, w, empty
    integer :: stat

    print '(a)', 'views: address, shape, leading dimension'
    v = tcgemm_device_view(parent(), 3, 4, 7, 5, stat=stat)
    call expect(stat == 0 .and. v%rows == 7 .and. v%cols == 5 .and. v%ld == PARENT_LD, &
                'view(3, 4, 7, 5): 7 x 5, the parent''s ld')
    call expect(v%is_view, 'view(3, 4, 7, 5): marked as a view')
    call expect(c_associated(v%ptr, element(3, 4)), 'view(3, 4, ...) starts at element (3, 4)')
    w = tcgemm_device_view(v, 2, 3, 6, 3, stat=stat)
    call expect(stat == 0 .and. c_associated(w%ptr, element(4, 6)) .and. w%ld == PARENT_LD, &
                'a view of a view: element (2, 3) of view(3, 4) is the parent''s (4, 6)')
    v = tcgemm_device_view(parent(), 1_int64, 1_int64, 12_int64, 9_int64, stat=stat)
    call expect(stat == 0 .and. c_associated(v%ptr, element(1, 1)) .and. v%rows == 12, &
                'int64 indices: the whole parent')
    empty = tcgemm_device_view(parent(), PARENT_ROWS + 1, 2, 0, 3, stat=stat)
    call expect(stat == 0 .and. empty%rows == 0 .and. empty%cols == 3, &
                'an empty view just past the last row is allowed')
  end subroutine test_view_addresses

  subroutine test_view_errors()
    type(tcgemm_device_matrix) :: v
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'views that would leave the parent: named errors, empty result'
    v = tcgemm_device_view(parent(), 0, 1, 2, 2, stat=stat, errmsg=errmsg)
    call expect_view_error('row = 0', v, stat, errmsg, 2, [character(len=48) :: &
                           'tcgemm_device_view', 'argument 2 (row) = 0', 'must be >= 1'])
    v = tcgemm_device_view(parent(), 5, 1, 9, 2, stat=stat, errmsg=errmsg)
    call expect_view_error('rows 5..13 of 12', v, stat, errmsg, 4, [character(len=48) :: &
                           'argument 4 (rows) = 9 from row 5 reaches 13', &
                           'past the parent''s 12 rows'])
    v = tcgemm_device_view(parent(), 1, 11, 2, 0, stat=stat, errmsg=errmsg)
    call expect_view_error('col = 11 of 9', v, stat, errmsg, 3, [character(len=48) :: &
                           'argument 3 (col) = 11', 'outside the parent''s 9 cols'])
    v = tcgemm_device_view(parent(), 1, 1, 2, -1, stat=stat, errmsg=errmsg)
    call expect_view_error('cols = -1', v, stat, errmsg, 5, [character(len=48) :: &
                           'argument 5 (cols) = -1', 'must be >= 0'])
    v = tcgemm_device_view(parent(), 1, 7, 2, 4, stat=stat, errmsg=errmsg)
    call expect_view_error('cols 7..10 of 9', v, stat, errmsg, 5, [character(len=48) :: &
                           'argument 5 (cols) = 4 from col 7 reaches 10'])
    v = tcgemm_device_view(tcgemm_device_matrix(c_null_ptr, 4, 4, 4), 1, 1, 2, 2, stat=stat, &
                           errmsg=errmsg)
    call expect_view_error('parent without memory', v, stat, errmsg, 1, [character(len=48) :: &
                           'argument 1 (a), 4x4, has no device memory'])
  end subroutine test_view_errors

  subroutine expect_view_error(what, v, stat, errmsg, number, needles)
    character(len=*), intent(in) :: what, errmsg
    type(tcgemm_device_matrix), intent(in) :: v
    integer, intent(in) :: stat, number
    character(len=*), intent(in) :: needles(:)
    call expect_status(what, stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, needles)
    call expect(tcgemm_last_error_argument() == number, what // ': tcgemm_last_error_argument')
    call expect(.not. c_associated(v%ptr) .and. v%rows == 0 .and. .not. v%is_view, &
                what // ': the result is an empty matrix')
  end subroutine expect_view_error

  !> Deallocating a view must not call cudaFree. Over host memory a cudaFree fails (with or
  !> without a GPU), so stat = 0 shows it was not called; the parent handle, deallocated the same
  !> way, shows that the test can tell the difference.
  subroutine test_view_deallocation()
    type(tcgemm_device_matrix) :: v, p
    integer :: stat

    print '(a)', 'deallocating a view frees nothing'
    v = tcgemm_device_view(parent(), 2, 2, 3, 3)
    call tcgemm_device_deallocate(v, stat=stat)
    call expect(stat == 0, 'deallocate a view: stat 0 (no cudaFree of its memory)')
    call expect(.not. c_associated(v%ptr) .and. v%rows == 0 .and. .not. v%is_view, &
                'deallocate a view: the handle is empty')
    p = parent()
    call tcgemm_device_deallocate(p, stat=stat)
    call expect(stat /= 0, 'control: deallocating the (host-memory) parent tries cudaFree and fails')
  end subroutine test_view_deallocation

  !> A view narrower than its ld shares its padding rows with its parent: an ld x cols host array
  !> (the verbatim layout of whole matrices) must be refused. Shape errors come before any copy.
  subroutine test_view_copies()
    type(tcgemm_device_matrix) :: v
    real(real64) :: verbatim(PARENT_LD, 3), wrong(4, 3)
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'copies to and from views: the host array is rows x cols'
    v = tcgemm_device_view(parent(), 3, 4, 5, 3)
    verbatim = 1.0_real64
    call tcgemm_copy(verbatim, v, stat=stat, errmsg=errmsg)
    call expect_status('upload ld x cols into a 5-row view', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=48) :: 'host to device', 'host array is 14x3', &
                       'a view: the host array must be rows x cols'])
    wrong = 2.0_real64
    call tcgemm_copy(v, wrong, stat=stat, errmsg=errmsg)
    call expect_status('download a 5 x 3 view into 4 x 3', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=48) :: 'device to host', 'host array is 4x3'])
    call expect(all(wrong == 2.0_real64), 'rejected download leaves the host array alone')
  end subroutine test_view_copies

  subroutine test_streams()
    type(c_ptr) :: stream
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    print '(a)', 'streams'
    errmsg = ''
    call tcgemm_stream_create(stream, stat=stat, errmsg=errmsg)
    if (stat == 0) then
      call expect(c_associated(stream), 'stream_create with a GPU: a stream')
      call tcgemm_stream_destroy(stream, stat=stat)
      call expect(stat == 0 .and. .not. c_associated(stream), 'stream_destroy: stat 0, null handle')
    else
      call expect_status('stream_create without a GPU', stat, TCGEMM_ERROR_NO_DEVICE, errmsg, &
                         [character(len=48) :: 'tcgemm_stream_create'])
      call expect(.not. c_associated(stream), 'stream_create without a GPU: null handle')
      call tcgemm_stream_synchronize(c_null_ptr, stat=stat, errmsg=errmsg)
      call expect_status('stream_synchronize without a GPU', stat, TCGEMM_ERROR_NO_DEVICE, &
                         errmsg, [character(len=48) :: 'tcgemm_stream_synchronize'])
    end if
    stream = c_null_ptr
    call tcgemm_stream_destroy(stream, stat=stat)
    call expect(stat == 0, 'stream_destroy of a null stream: a no-op')
  end subroutine test_streams

end program test_views_streams_cpu
