!> Shared pieces of the Fortran test programs: pass/fail bookkeeping, the "no GPU -> skip" rule,
!> random operands, NaN poison, and the host reference for C <- alpha op(A) op(B) + beta C.
module test_support
  use, intrinsic :: iso_fortran_env, only: int64, real64, output_unit, error_unit
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use tcgemm
  implicit none
  private

  public :: SKIP_EXIT_CODE, PAD_SENTINEL
  public :: expect, expect_status, finish_tests, failures
  public :: contains_text, skip_without_device, random_matrix, integer_valued_matrix, nan
  public :: reference_gemm, gemm_close, op_rows, op_cols
  public :: stream_create, stream_destroy

  !> Exit code of a skipped test, registered as SKIP_RETURN_CODE in ctest (automake's 77).
  integer, parameter :: SKIP_EXIT_CODE = 77
  !> Value written into padding rows (rows rows+1..ld) that no kernel may overwrite.
  real(real64), parameter :: PAD_SENTINEL = -7777.25_real64

  integer :: failures = 0
  logical :: seeded = .false.


contains

  !> Record one check; print it when it fails.
  subroutine expect(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (condition) then
      write (output_unit, '(a,a)') '  ok    ', what
    else
      failures = failures + 1
      write (output_unit, '(a,a)') '  FAIL  ', what
    end if
  end subroutine expect

  !> Check a returned stat and that errmsg names what it should (`needles`, all of them).
  subroutine expect_status(what, stat, expected_stat, errmsg, needles)
    character(len=*), intent(in) :: what
    integer, intent(in) :: stat, expected_stat
    character(len=*), intent(in) :: errmsg
    character(len=*), intent(in) :: needles(:)
    integer :: i
    logical :: found

    call expect(stat == expected_stat, what // ': stat = ' // itoa(stat) // ', expected ' // &
                itoa(expected_stat))
    do i = 1, size(needles)
      found = contains_text(errmsg, trim(needles(i)))
      call expect(found, what // ': errmsg contains "' // trim(needles(i)) // '"')
    end do
    if (stat /= expected_stat .or. .not. all([(contains_text(errmsg, trim(needles(i))), &
                                               i = 1, size(needles))])) then
      write (output_unit, '(a,a)') '        errmsg was: ', trim(errmsg)
    end if
  end subroutine expect_status

  !> End the program: exit 0 when every check passed, else ERROR STOP with the count.
  subroutine finish_tests()
    if (failures == 0) then
      write (output_unit, '(a)') 'all checks passed'
    else
      write (error_unit, '(i0,a)') failures, ' check(s) failed'
      error stop 1
    end if
  end subroutine finish_tests

  pure function itoa(value) result(text)
    integer, intent(in) :: value
    character(len=:), allocatable :: text
    character(len=16) :: buffer
    write (buffer, '(i0)') value
    text = trim(buffer)
  end function itoa

  logical function contains_text(text, part)
    character(len=*), intent(in) :: text, part
    contains_text = index(text, part) > 0
  end function contains_text

  !> GPU tests call this first: with no CUDA device (tcgemm_device_info_get returns
  !> TCGEMM_ERROR_NO_DEVICE) or one below compute capability 8.0 the test is skipped.
  subroutine skip_without_device(info)
    type(tcgemm_device_info), intent(out) :: info
    integer :: stat
    character(len=512) :: errmsg

    errmsg = ''
    call tcgemm_device_info_get(info, stat=stat, errmsg=errmsg)
    if (stat == TCGEMM_ERROR_NO_DEVICE) then
      write (output_unit, '(a)') 'SKIPPED: no CUDA device'
      stop SKIP_EXIT_CODE
    end if
    if (stat /= 0) error stop 'tcgemm_device_info_get failed: ' // trim(errmsg)
    if (info%cc_major < 8) then
      write (output_unit, '(a)') 'SKIPPED: compute capability below 8.0'
      stop SKIP_EXIT_CODE
    end if
    write (output_unit, '(a,a,a,i0,a,i0)') 'device: ', tcgemm_device_name(info), ', cc ', &
                                           info%cc_major, '.', info%cc_minor
  end subroutine skip_without_device

  subroutine seed_once()
    if (seeded) return
    call random_init(repeatable=.true., image_distinct=.true.)
    seeded = .true.
  end subroutine seed_once

  !> Uniform random values in [-1, 1): fresh data, never zeros.
  subroutine random_matrix(a)
    real(real64), intent(out) :: a(:, :)
    call seed_once()
    call random_number(a)
    a = 2.0_real64 * a - 1.0_real64
  end subroutine random_matrix

  !> Random integers in [-range, range] (exact products and sums in FP64).
  subroutine integer_valued_matrix(a, range)
    real(real64), intent(out) :: a(:, :)
    integer, intent(in) :: range
    call seed_once()
    call random_number(a)
    a = real(floor((2 * range + 1) * a) - range, real64)
  end subroutine integer_valued_matrix

  real(real64) function nan()
    nan = ieee_value(1.0_real64, ieee_quiet_nan)
  end function nan

  integer function op_rows(trans, x)
    character(len=1), intent(in) :: trans
    real(real64), intent(in) :: x(:, :)
    op_rows = merge(size(x, 1), size(x, 2), trans == 'N' .or. trans == 'n')
  end function op_rows

  integer function op_cols(trans, x)
    character(len=1), intent(in) :: trans
    real(real64), intent(in) :: x(:, :)
    op_cols = merge(size(x, 2), size(x, 1), trans == 'N' .or. trans == 'n')
  end function op_cols

  !> op(X) as an array: X for 'N', X^T otherwise.
  subroutine make_op(trans, x, y)
    character(len=1), intent(in) :: trans
    real(real64), intent(in) :: x(:, :)
    real(real64), allocatable, intent(out) :: y(:, :)
    allocate(y(op_rows(trans, x), op_cols(trans, x)))
    if (trans == 'N' .or. trans == 'n') then
      y = x
    else
      y = transpose(x)
    end if
  end subroutine make_op

  !> Host reference alpha op(A) op(B) + beta C0 (beta = 0: C0 is not read, as in BLAS) and the
  !> elementwise rounding bound 2 (k + 2) eps (|alpha| |op(A)| |op(B)| + |beta C0|).
  subroutine reference_gemm(transa, transb, alpha, a, b, beta, c0, ref, bound)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(:, :), b(:, :), c0(:, :)
    real(real64), intent(out) :: ref(:, :), bound(:, :)
    real(real64), allocatable :: opa(:, :), opb(:, :)
    integer :: k

    call make_op(transa, a, opa)
    call make_op(transb, b, opb)
    k = size(opa, 2)
    ref = alpha * matmul(opa, opb)
    bound = abs(alpha) * matmul(abs(opa), abs(opb))
    if (beta /= 0.0_real64) then
      ref = ref + beta * c0
      bound = bound + abs(beta * c0)
    end if
    bound = 2.0_real64 * (k + 2) * epsilon(1.0_real64) * bound
  end subroutine reference_gemm

  !> Whether c matches alpha op(A) op(B) + beta C0 within rounding (NaN fails).
  logical function gemm_close(transa, transb, alpha, a, b, beta, c0, c)
    character(len=1), intent(in) :: transa, transb
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(:, :), b(:, :), c0(:, :), c(:, :)
    real(real64), allocatable :: ref(:, :), bound(:, :)

    allocate(ref(size(c, 1), size(c, 2)), bound(size(c, 1), size(c, 2)))
    call reference_gemm(transa, transb, alpha, a, b, beta, c0, ref, bound)
    gemm_close = all(abs(c - ref) <= bound)
    if (.not. gemm_close) write (output_unit, '(a,es10.3,a,es10.3)') '        max |error| = ', &
      maxval(abs(c - ref), mask=.not. ieee_is_nan_array(c)), ', NaNs: ', &
      real(count(ieee_is_nan_array(c)), real64)
  end function gemm_close

  elemental logical function ieee_is_nan_array(x)
    use, intrinsic :: ieee_arithmetic, only: ieee_is_nan
    real(real64), intent(in) :: x
    ieee_is_nan_array = ieee_is_nan(x)
  end function ieee_is_nan_array

  !> A new non-default CUDA stream, from the module's own helper (no stat: a failure stops).
  function stream_create() result(stream)
    type(c_ptr) :: stream
    call tcgemm_stream_create(stream)
  end function stream_create

  subroutine stream_destroy(stream)
    type(c_ptr), intent(in) :: stream
    type(c_ptr) :: handle
    handle = stream
    call tcgemm_stream_destroy(handle)
  end subroutine stream_destroy
end module test_support
