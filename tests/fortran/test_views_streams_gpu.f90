!> Views of one device matrix and the stream helpers on the GPU: products on views equal the
!> products of the host blocks they stand for, copies to and from views touch only the view, and
!> every element of the parent outside the written view (padding rows included) keeps its bits.
!> Exits with 77 ("skipped") when there is no CUDA device.
!>
!> Usage: test_views_streams_gpu <case>   (cases: products, copies, two_streams)
program test_views_streams_gpu
  use, intrinsic :: iso_fortran_env, only: int64, real64, error_unit
  use, intrinsic :: iso_c_binding, only: c_ptr, c_associated
  use tcgemm
  use test_support
  implicit none

  integer, parameter :: MSG_LEN = 512
  !> The parent: ROWS x COLS in device memory with leading dimension LD > ROWS.
  integer, parameter :: ROWS = 200, COLS = 150, LD = 203

  !> A block of the parent: first row and column, rows and columns.
  type :: block
    integer :: row, col, rows, cols
  end type block

  type(tcgemm_device_info) :: info
  character(len=32) :: which

  call get_command_argument(1, which)
  call skip_without_device(info)
  select case (which)
  case ('products')
    call test_products()
  case ('copies')
    call test_copies()
  case ('two_streams')
    call test_two_streams()
  case default
    write (error_unit, '(a)') 'unknown case: ' // trim(which)
    error stop 2
  end select
  call finish_tests()

contains

  ! ---- the parent ------------------------------------------------------------------------------

  !> Random contents (padding rows: PAD_SENTINEL), uploaded verbatim into a new device matrix.
  subroutine make_parent(host, d)
    real(real64), allocatable, intent(out) :: host(:, :)
    type(tcgemm_device_matrix), intent(inout) :: d
    allocate(host(LD, COLS))
    call random_matrix(host)
    host(ROWS + 1:, :) = PAD_SENTINEL
    call tcgemm_device_allocate(d, ROWS, COLS, ld=LD)
    call tcgemm_copy(host, d)
  end subroutine make_parent

  function view_of(d, b) result(v)
    type(tcgemm_device_matrix), intent(in) :: d
    type(block), intent(in) :: b
    type(tcgemm_device_matrix) :: v
    v = tcgemm_device_view(d, b%row, b%col, b%rows, b%cols)
  end function view_of

  !> The parent's contents now (ld x cols, padding included).
  function parent_now(d) result(host)
    type(tcgemm_device_matrix), intent(in) :: d
    real(real64), allocatable :: host(:, :)
    allocate(host(LD, COLS))
    call tcgemm_copy(d, host)
  end function parent_now

  !> True where (i, j) lies outside block b.
  function outside(b) result(mask)
    type(block), intent(in) :: b
    logical, allocatable :: mask(:, :)
    allocate(mask(LD, COLS))
    mask = .true.
    mask(b%row:b%row + b%rows - 1, b%col:b%col + b%cols - 1) = .false.
  end function outside

  !> Bitwise equality of two parents outside block b (NaN-safe: compares the bits).
  logical function same_outside(x, y, b)
    real(real64), intent(in) :: x(:, :), y(:, :)
    type(block), intent(in) :: b
    same_outside = all(transfer(x, 1_int64, size(x)) == transfer(y, 1_int64, size(y)) .or. &
                       .not. reshape(outside(b), [size(x)]))
  end function same_outside

  function part(host, b) result(x)
    real(real64), intent(in) :: host(:, :)
    type(block), intent(in) :: b
    real(real64), allocatable :: x(:, :)
    x = host(b%row:b%row + b%rows - 1, b%col:b%col + b%cols - 1)
  end function part

  ! ---- cases -----------------------------------------------------------------------------------

  !> C_view <- alpha op(A_view) op(B_view) + beta C_view on a stream of tcgemm_stream_create, for
  !> 'N','N' and 'T','N', and one kernel-family call on views.
  subroutine test_products()
    real(real64), allocatable :: before(:, :), after(:, :)
    type(tcgemm_device_matrix) :: p, c_view
    type(c_ptr) :: stream
    type(block), parameter :: a_nn = block(11, 21, 40, 30), b_nn = block(61, 5, 30, 25), &
                              c_blk = block(101, 61, 40, 25), a_tn = block(151, 1, 30, 40), &
                              b_tn = block(1, 100, 30, 25)
    integer :: stat
    character(len=MSG_LEN) :: errmsg

    call make_parent(before, p)
    call tcgemm_stream_create(stream)
    call expect(c_associated(stream), 'tcgemm_stream_create gives a stream')

    errmsg = ''
    c_view = view_of(p, c_blk)
    call tcgemm_dgemm('N', 'N', 1.5_real64, view_of(p, a_nn), view_of(p, b_nn), -0.5_real64, &
                      c_view, stream=stream, stat=stat, errmsg=errmsg)
    call tcgemm_stream_synchronize(stream)
    after = parent_now(p)
    call expect(stat == 0, 'NN on views: stat = 0 ' // trim(errmsg))
    call expect(gemm_close('N', 'N', 1.5_real64, part(before, a_nn), part(before, b_nn), &
                           -0.5_real64, part(before, c_blk), part(after, c_blk)), &
                'NN on views: C block = 1.5 A block B block - 0.5 C block')
    call expect(same_outside(before, after, c_blk), 'NN on views: nothing outside C''s view changed')

    before = after
    call tcgemm_dgemm('T', 'N', 1.0_real64, view_of(p, a_tn), view_of(p, b_tn), 0.0_real64, &
                      c_view, stream=stream, stat=stat, errmsg=errmsg)
    call tcgemm_stream_synchronize(stream)
    after = parent_now(p)
    call expect(stat == 0, 'TN on views: stat = 0 ' // trim(errmsg))
    call expect(gemm_close('T', 'N', 1.0_real64, part(before, a_tn), part(before, b_tn), &
                           0.0_real64, part(before, c_blk), part(after, c_blk)), &
                'TN on views: C block = A block^T B block')
    call expect(same_outside(before, after, c_blk), 'TN on views: nothing outside C''s view changed')

    before = after
    call tcgemm_dmma_warp_per_block(view_of(p, a_nn), view_of(p, b_nn), c_view, &
                                    stream=stream, stat=stat, errmsg=errmsg)
    call tcgemm_stream_synchronize(stream)
    after = parent_now(p)
    call expect(stat == 0, 'warp_per_block on views: stat = 0 ' // trim(errmsg))
    call expect(gemm_close('N', 'N', 1.0_real64, part(before, a_nn), part(before, b_nn), &
                           0.0_real64, part(before, c_blk), part(after, c_blk)) .and. &
                same_outside(before, after, c_blk), 'warp_per_block on views: C block only')

    call tcgemm_stream_destroy(stream)
    call expect(.not. c_associated(stream), 'tcgemm_stream_destroy nulls the handle')
    call tcgemm_device_deallocate(p)
  end subroutine test_products

  !> Uploads into a view write its elements only (a narrow view column by column); downloads
  !> read them back; deallocating a view leaves the parent's memory alone.
  subroutine test_copies()
    real(real64), allocatable :: before(:, :), after(:, :)
    real(real64), allocatable :: x(:, :), y(:, :)
    type(tcgemm_device_matrix) :: p, v, whole
    type(block), parameter :: narrow = block(5, 7, 17, 9), last_cols = block(184, 141, 17, 10)
    integer :: stat

    call make_parent(before, p)
    allocate(x(narrow%rows, narrow%cols), y(narrow%rows, narrow%cols))
    call random_matrix(x)
    v = view_of(p, narrow)
    call tcgemm_copy(x, v, stat=stat)
    after = parent_now(p)
    call expect(stat == 0 .and. all(part(after, narrow) == x), 'upload into a view')
    call expect(same_outside(before, after, narrow), 'upload into a view: nothing else changed')
    y = 0.0_real64
    call tcgemm_copy(v, y, stat=stat)
    call expect(stat == 0 .and. all(y == x), 'download from a view')

    ! The last rows and columns of the parent: a whole-column copy from here would run past the
    ! end of the parent's memory.
    before = after
    deallocate(x, y)
    allocate(x(last_cols%rows, last_cols%cols), y(last_cols%rows, last_cols%cols))
    call random_matrix(x)
    v = view_of(p, last_cols)
    call tcgemm_copy(x, v, stat=stat)
    call tcgemm_copy(v, y)
    after = parent_now(p)
    call expect(stat == 0 .and. all(y == x) .and. all(part(after, last_cols) == x), &
                'round trip through the view at the parent''s last rows and columns')
    call expect(same_outside(before, after, last_cols), 'last-columns view: nothing else changed')

    call tcgemm_device_deallocate(v, stat=stat)
    call expect(stat == 0 .and. .not. tcgemm_device_allocated(v), 'deallocate the view')
    call expect(all(parent_now(p) == after), 'the parent is intact after the view is deallocated')

    ! A view of the whole parent is a view too: deallocating it must not free the parent.
    whole = tcgemm_device_view(p, 1, 1, ROWS, COLS)
    call tcgemm_device_deallocate(whole)
    call expect(all(parent_now(p) == after), 'the parent is intact after a whole view is deallocated')
    call tcgemm_device_deallocate(p, stat=stat)
    call expect(stat == 0, 'deallocate the parent (its memory was never freed by a view)')
  end subroutine test_copies

  !> Two streams, two products on disjoint views, one synchronize each.
  subroutine test_two_streams()
    real(real64), allocatable :: before(:, :), after(:, :)
    type(tcgemm_device_matrix) :: p, c1_view, c2_view
    type(c_ptr) :: s1, s2
    type(block), parameter :: a1 = block(1, 1, 60, 50), b1 = block(61, 1, 50, 40), &
                              c1 = block(1, 51, 60, 40), a2 = block(121, 1, 70, 33), &
                              b2 = block(1, 91, 33, 45), c2 = block(121, 101, 70, 45)
    integer :: stat1, stat2

    call make_parent(before, p)
    call tcgemm_stream_create(s1)
    call tcgemm_stream_create(s2)
    c1_view = view_of(p, c1)
    c2_view = view_of(p, c2)
    call tcgemm_dgemm('N', 'N', 1.0_real64, view_of(p, a1), view_of(p, b1), 1.0_real64, &
                      c1_view, stream=s1, stat=stat1)
    call tcgemm_dgemm('N', 'N', 2.0_real64, view_of(p, a2), view_of(p, b2), 0.0_real64, &
                      c2_view, stream=s2, stat=stat2)
    call tcgemm_stream_synchronize(s1)
    call tcgemm_stream_synchronize(s2)
    after = parent_now(p)
    call expect(stat1 == 0 .and. stat2 == 0, 'two streams: both launches accepted')
    call expect(gemm_close('N', 'N', 1.0_real64, part(before, a1), part(before, b1), 1.0_real64, &
                           part(before, c1), part(after, c1)), 'stream 1: its C block')
    call expect(gemm_close('N', 'N', 2.0_real64, part(before, a2), part(before, b2), 0.0_real64, &
                           part(before, c2), part(after, c2)), 'stream 2: its C block')
    ! Put C1's old block back: then only C2's view may differ.
    after(c1%row:c1%row + c1%rows - 1, c1%col:c1%col + c1%cols - 1) = part(before, c1)
    call expect(same_outside(before, after, c2), 'two streams: nothing outside the two C views changed')
    call tcgemm_stream_destroy(s1)
    call tcgemm_stream_destroy(s2)
    call tcgemm_device_deallocate(p)
  end subroutine test_two_streams

end program test_views_streams_gpu
