!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): views of a part of a device matrix.
!>
!> `v = tcgemm_device_view(a_d, row, col, rows, cols)` is the rows x cols block of a_d whose first
!> element is a_d(row, col): a tcgemm_device_matrix sharing a_d's memory, with a_d's leading
!> dimension, usable wherever a device matrix is (tcgemm_dgemm, the family calls, tcgemm_copy).
!> It is the device form of the BLAS sub-matrix idiom `a(row, col), lda`. A view never owns
!> memory: tcgemm_device_deallocate only forgets it, and deallocating the parent ends it.
!> view_core, which takes the element size, is public to the other parts: views of real(real32)
!> matrices (tcgemm_device_real32) end there too. Programs `use tcgemm`, not this module.
module tcgemm_device_views
  use, intrinsic :: iso_fortran_env, only: int32, int64
  use, intrinsic :: iso_c_binding, only: c_null_ptr, c_associated
  use tcgemm_c, only: TCGEMM_SUCCESS
  use tcgemm_errors, only: report, fail_argument, itoa
  use tcgemm_device_matrices, only: tcgemm_device_matrix, offset_address, shape_text, &
                                    BYTES_PER_REAL64
  implicit none
  private

  public :: tcgemm_device_view, view_core

  !> Positions of the arguments, for tcgemm_last_error_argument.
  integer, parameter :: ARG_PARENT = 1, ARG_ROW = 2, ARG_COL = 3, ARG_ROWS = 4, ARG_COLS = 5

  !> `tcgemm_device_view(a, row, col, rows, cols [, stat, errmsg])`: indices all default integer
  !> or all int64; stat default integer or int64 (a caller compiled with -fdefault-integer-8).
  !> On error the result is an empty matrix.
  interface tcgemm_device_view
    module procedure view_i32, view_i64, view_i32_stat64, view_i64_stat64
  end interface tcgemm_device_view

contains

  !> Why `first` (argument `first_arg`) and `count` (argument `count_arg`) do not pick a range
  !> of the parent's `extent` rows (or columns), or ''. `blamed` gets the argument at fault.
  function range_problem(first_name, first_arg, first, count_name, count_arg, count, extent, &
                         blamed) result(problem)
    character(len=*), intent(in) :: first_name, count_name
    integer, intent(in) :: first_arg, count_arg
    integer(int64), intent(in) :: first, count, extent
    integer, intent(out) :: blamed
    character(len=:), allocatable :: problem

    problem = ''
    blamed = 0
    if (first < 1) then
      blamed = first_arg
      problem = subject(first_arg, first_name, first) // ' must be >= 1'
    else if (count < 0) then
      blamed = count_arg
      problem = subject(count_arg, count_name, count) // ' must be >= 0'
    else if (first > extent + 1) then
      blamed = first_arg
      problem = subject(first_arg, first_name, first) // ' lies outside the parent''s ' // &
                itoa(extent) // ' ' // count_name
    else if (count > extent - first + 1) then
      blamed = count_arg
      problem = subject(count_arg, count_name, count) // ' from ' // first_name // ' ' // &
                itoa(first) // ' reaches ' // itoa(first + count - 1) // &
                ', past the parent''s ' // itoa(extent) // ' ' // count_name // &
                ': the view must stay inside its parent'
    end if
  end function range_problem

  !> "argument 4 (rows) = 10", the subject of a message.
  function subject(position, name, value) result(text)
    integer, intent(in) :: position
    character(len=*), intent(in) :: name
    integer(int64), intent(in) :: value
    character(len=:), allocatable :: text
    text = 'argument ' // itoa(int(position, int64)) // ' (' // name // ') = ' // itoa(value)
  end function subject

  !> The view of a matrix of element_bytes elements (all specifics, of both kinds, end here).
  function view_core(a, row, col, rows, cols, element_bytes, stat, errmsg) result(v)
    type(tcgemm_device_matrix), intent(in) :: a
    integer(int64), intent(in) :: row, col, rows, cols, element_bytes
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(tcgemm_device_matrix) :: v
    character(len=*), parameter :: where = 'tcgemm_device_view'
    character(len=:), allocatable :: problem
    integer :: blamed

    v = tcgemm_device_matrix()
    problem = range_problem('row', ARG_ROW, row, 'rows', ARG_ROWS, rows, a%rows, blamed)
    if (len(problem) == 0) &
      problem = range_problem('col', ARG_COL, col, 'cols', ARG_COLS, cols, a%cols, blamed)
    if (len(problem) == 0 .and. rows > 0 .and. cols > 0 .and. .not. c_associated(a%ptr)) then
      blamed = ARG_PARENT
      problem = 'argument 1 (a), ' // shape_text(a) // ', has no device memory (allocate it first)'
    end if
    if (len(problem) > 0) then
      call fail_argument(where, problem, stat, errmsg, argument=blamed)
      return
    end if

    v%rows = rows
    v%cols = cols
    v%ld = a%ld
    v%is_view = .true.
    v%ptr = c_null_ptr
    if (c_associated(a%ptr)) &
      v%ptr = offset_address(a%ptr, ((col - 1) * a%ld + (row - 1)) * element_bytes)
    call report(TCGEMM_SUCCESS, '', stat, errmsg)
  end function view_core

  !> Default-integer indices and stat.
  function view_i32(a, row, col, rows, cols, stat, errmsg) result(v)
    type(tcgemm_device_matrix), intent(in) :: a
    integer(int32), intent(in) :: row, col, rows, cols
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(tcgemm_device_matrix) :: v
    v = view_core(a, int(row, int64), int(col, int64), int(rows, int64), int(cols, int64), &
                  BYTES_PER_REAL64, stat, errmsg)
  end function view_i32

  !> int64 indices, default-integer stat.
  function view_i64(a, row, col, rows, cols, stat, errmsg) result(v)
    type(tcgemm_device_matrix), intent(in) :: a
    integer(int64), intent(in) :: row, col, rows, cols
    integer(int32), intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(tcgemm_device_matrix) :: v
    v = view_core(a, row, col, rows, cols, BYTES_PER_REAL64, stat, errmsg)
  end function view_i64

  !> Default-integer indices, int64 stat (not optional: it tells this specific from view_i32).
  function view_i32_stat64(a, row, col, rows, cols, stat, errmsg) result(v)
    type(tcgemm_device_matrix), intent(in) :: a
    integer(int32), intent(in) :: row, col, rows, cols
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(tcgemm_device_matrix) :: v
    integer :: status
    v = view_core(a, int(row, int64), int(col, int64), int(rows, int64), int(cols, int64), &
                  BYTES_PER_REAL64, status, errmsg)
    stat = status
  end function view_i32_stat64

  !> int64 indices and stat: a caller compiled with -fdefault-integer-8.
  function view_i64_stat64(a, row, col, rows, cols, stat, errmsg) result(v)
    type(tcgemm_device_matrix), intent(in) :: a
    integer(int64), intent(in) :: row, col, rows, cols
    integer(int64), intent(out) :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(tcgemm_device_matrix) :: v
    integer :: status
    v = view_core(a, row, col, rows, cols, BYTES_PER_REAL64, status, errmsg)
    stat = status
  end function view_i64_stat64

end module tcgemm_device_views
