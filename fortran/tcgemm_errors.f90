!> Part of module tcgemm (fortran/tcgemm.f90 lists the parts): strings and error reporting.
!>
!> Public to module tcgemm: the status and version strings, tcgemm_last_error and
!> tcgemm_last_error_argument. Public to the other parts only (module tcgemm does not re-export
!> them): report, finish and fail_argument, which deliver an error like ALLOCATE does, fits_int32
!> for the int64 arguments of a caller built with -fdefault-integer-8, and itoa for messages.
!> Programs `use tcgemm`, not this module.
module tcgemm_errors
  use, intrinsic :: iso_fortran_env, only: int32, int64
  use, intrinsic :: iso_c_binding, only: c_int, c_int32_t, c_char, c_ptr, c_f_pointer, c_associated
  use tcgemm_c, only: TCGEMM_SUCCESS, TCGEMM_ERROR_INVALID_ARGUMENT, c_strlen, &
                      c_tcgemm_status_string, c_tcgemm_last_error, &
                      c_tcgemm_last_error_argument, c_tcgemm_version_string
  implicit none
  private

  public :: tcgemm_status_string, tcgemm_last_error, tcgemm_last_error_argument
  public :: tcgemm_version_string
  public :: report, finish, fail_argument, fits_int32, itoa

  !> Name of a status code; the status may be a default integer or int64 (the `stat` of a caller
  !> built with -fdefault-integer-8).
  interface tcgemm_status_string
    module procedure status_string_i32, status_string_i64
  end interface tcgemm_status_string

  !> True while the last failure on this thread came from module tcgemm's own checks (shapes,
  !> allocation state, host-array extents, views), made before any library call:
  !> tcgemm_last_error_argument() then gives module_argument, the number that check blamed (0: none).
  logical :: module_failed = .false.
  integer :: module_argument = 0
  !$omp threadprivate(module_failed, module_argument)

contains

  !> Copy a NUL-terminated C string owned by the library into a Fortran string.
  function fortran_string(str) result(text)
    type(c_ptr), intent(in) :: str
    character(len=:), allocatable :: text
    character(kind=c_char), pointer :: chars(:)
    integer :: length, i

    if (.not. c_associated(str)) then
      text = ''
      return
    end if
    length = int(c_strlen(str))
    call c_f_pointer(str, chars, [length])
    allocate(character(len=length) :: text)
    do i = 1, length
      text(i:i) = chars(i)
    end do
  end function fortran_string

  !> Name of a status code, e.g. "TCGEMM_ERROR_INVALID_ARGUMENT".
  function status_string_i64(status) result(text)
    integer(int64), intent(in) :: status
    character(len=:), allocatable :: text
    integer(int64), parameter :: UNKNOWN_STATUS = -1    ! the library names it as unknown
    integer(int64) :: code

    code = status
    if (code < int(-huge(0_c_int), int64) .or. code > int(huge(0_c_int), int64)) code = UNKNOWN_STATUS
    text = fortran_string(c_tcgemm_status_string(int(code, c_int)))
  end function status_string_i64

  function status_string_i32(status) result(text)
    integer(int32), intent(in) :: status
    character(len=:), allocatable :: text
    text = status_string_i64(int(status, int64))
  end function status_string_i32

  !> Message of the last failed tcgemm call on this thread ("" after a successful call).
  function tcgemm_last_error() result(text)
    character(len=:), allocatable :: text
    text = fortran_string(c_tcgemm_last_error())
  end function tcgemm_last_error

  !> The argument the last failed tcgemm call on this thread blamed, as a number (0: none).
  !> For tcgemm_dgemm on host arrays (the BLAS form) it is reference DGEMM's numbering, as
  !> XERBLA's INFO: 1 transa, 2 transb, 3 m, 4 n, 5 k, 6 alpha, 7 a, 8 lda, 9 b, 10 ldb,
  !> 11 beta, 12 c, 13 ldc; the module's own checks of the host arrays (contiguity, extent) blame
  !> a, b or c by those numbers too. Calls on device matrices report the position the library
  !> gives for the C entry point behind them (see tcgemm.h); tcgemm_device_view blames its own
  !> arguments by position (1 a, 2 row, 3 col, 4 rows, 5 cols), and tcgemm_dgemm_batched on
  !> device batches the operand at fault (4 a, 5 b, 7 c); module tcgemm's other checks (shapes
  !> of device matrices, allocation state) blame no numbered argument and give 0.
  function tcgemm_last_error_argument() result(argument)
    integer :: argument
    if (module_failed) then
      argument = module_argument
    else
      argument = int(c_tcgemm_last_error_argument())
    end if
  end function tcgemm_last_error_argument

  !> Version of the library linked at run time, e.g. "0.1.0".
  function tcgemm_version_string() result(text)
    character(len=:), allocatable :: text
    text = fortran_string(c_tcgemm_version_string())
  end function tcgemm_version_string

  !> Deliver an error like ALLOCATE does: to stat/errmsg when stat is present, else ERROR STOP.
  subroutine report(status, message, stat, errmsg)
    integer, intent(in) :: status
    character(len=*), intent(in) :: message
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg

    if (present(stat)) stat = status
    if (status == TCGEMM_SUCCESS) return
    if (present(errmsg)) errmsg = message
    if (.not. present(stat)) error stop message
  end subroutine report

  !> Deliver a failure: errmsg gets "tcgemm: <where>: <STATUS>: <reason>" when it is long enough,
  !> otherwise the reason first, "<reason> (tcgemm: <where>: <STATUS>)", cut to its length, so that a
  !> short errmsg keeps what went wrong rather than where. ERROR STOP (no stat) prints the full text.
  subroutine report_failure(status, where, reason, stat, errmsg)
    integer, intent(in) :: status
    character(len=*), intent(in) :: where, reason
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: full, context

    context = 'tcgemm: ' // where // ': ' // tcgemm_status_string(status)
    full = context // ': ' // reason
    if (present(errmsg)) then
      if (len(errmsg) >= len(full)) then
        errmsg = full
      else
        errmsg = reason // ' (' // context // ')'
      end if
    end if
    call report(status, full, stat)
  end subroutine report_failure

  !> Finish a wrapper after a C call: on failure report "<where>: <status>: <library message>".
  !> The library's message is read first, before any other call can replace it.
  subroutine finish(status, where, stat, errmsg)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: where
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: detail

    module_failed = .false.
    if (status == TCGEMM_SUCCESS) then
      call report(TCGEMM_SUCCESS, '', stat, errmsg)
      return
    end if
    detail = tcgemm_last_error()
    if (len(detail) == 0) detail = '(no message)'
    call report_failure(int(status), where, detail, stat, errmsg)
  end subroutine finish

  !> Report an argument error found by module tcgemm itself (shapes of device matrices,
  !> allocation state, host-array extents, views); `argument` is the number it blames, for
  !> tcgemm_last_error_argument (absent: none).
  subroutine fail_argument(where, detail, stat, errmsg, argument)
    character(len=*), intent(in) :: where, detail
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer, intent(in), optional :: argument
    module_failed = .true.
    module_argument = 0
    if (present(argument)) module_argument = argument
    call report_failure(int(TCGEMM_ERROR_INVALID_ARGUMENT), where, detail, stat, errmsg)
  end subroutine fail_argument

  !> Whether each of `values` fits the library's 32-bit integer arguments. Only an int64 argument
  !> (a caller built with -fdefault-integer-8) can fail to; the first that does is reported, by
  !> its name in `names`, as an argument error of `where` (converting it would change its value).
  logical function fits_int32(where, names, values, stat, errmsg)
    character(len=*), intent(in) :: where, names(:)
    integer(int64), intent(in) :: values(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(int64), parameter :: LOWEST = -int(huge(0_c_int32_t), int64) - 1
    integer(int64), parameter :: HIGHEST = int(huge(0_c_int32_t), int64)
    integer :: i

    fits_int32 = .true.
    do i = 1, size(values)
      if (values(i) < LOWEST .or. values(i) > HIGHEST) then
        fits_int32 = .false.
        call fail_argument(where, trim(names(i)) // ' = ' // itoa(values(i)) // &
                           ' does not fit the library''s 32-bit integer', stat, errmsg)
        return
      end if
    end do
  end function fits_int32

  !> Decimal text of an integer, for messages.
  pure function itoa(value) result(text)
    integer(int64), intent(in) :: value
    character(len=:), allocatable :: text
    character(len=24) :: buffer
    write (buffer, '(i0)') value
    text = trim(buffer)
  end function itoa

end module tcgemm_errors
