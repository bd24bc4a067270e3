!> Helpers shared by the Fortran example programs: command-line integers, random operands, the
!> result check against the host (intrinsic matmul), and the article's output lines.
module example_util
  use, intrinsic :: iso_fortran_env, only: int64, real64, output_unit
  use tcgemm, only: tcgemm_device_info, tcgemm_device_info_get, tcgemm_device_name
  implicit none
  private

  public :: int_arg, random_matrix, integer_valued_matrix, product_ok, tflops
  public :: print_device, print_result

  !> Above this many multiply-adds the check samples columns of C instead of recomputing all of
  !> it: a single-threaded host matmul of 3200^3 would take longer than the whole GPU run.
  integer(int64), parameter :: FULL_CHECK_MAX_FMAS = 2_int64**28
  !> Columns of C checked (all their rows) when sampling; the first and the last are always in.
  integer, parameter :: SAMPLED_COLUMNS = 48

  !> Whether the random generator has been given its fixed seed yet.
  logical :: seeded = .false.

contains

  !> The i-th command-line argument as an integer, or `default` when it is absent.
  integer function int_arg(i, default)
    integer, intent(in) :: i, default
    character(len=32) :: text
    integer :: ios

    int_arg = default
    if (command_argument_count() < i) return
    call get_command_argument(i, text)
    read (text, *, iostat=ios) int_arg
    if (ios /= 0) error stop 'command-line argument ' // trim(text) // ' is not an integer'
  end function int_arg

  !> Seed the generator once, so every run of an example draws the same operands.
  subroutine seed_once()
    if (seeded) return
    call random_init(repeatable=.true., image_distinct=.true.)
    seeded = .true.
  end subroutine seed_once

  !> Uniform random values in [-1, 1), the same on every run.
  subroutine random_matrix(a)
    real(real64), intent(out) :: a(:, :)
    call seed_once()
    call random_number(a)
    a = 2.0_real64 * a - 1.0_real64
  end subroutine random_matrix

  !> Random integers in [-range, range]: products and sums of them are exact in FP64, so a
  !> result built from them can be compared exactly.
  subroutine integer_valued_matrix(a, range)
    real(real64), intent(out) :: a(:, :)
    integer, intent(in) :: range
    call seed_once()
    call random_number(a)
    a = real(floor((2 * range + 1) * a) - range, real64)
  end subroutine integer_valued_matrix

  !> Whether c = a b to within rounding: |c_ij - ref_ij| <= 2 (k + 1) eps sum_l |a_il| |b_lj|,
  !> the forward-error bound of two k-term dot products (the GPU's and matmul's), elementwise.
  !> NaN anywhere fails. Large problems are checked on a sample of whole columns.
  logical function product_ok(a, b, c)
    real(real64), intent(in) :: a(:, :), b(:, :), c(:, :)
    integer, allocatable :: cols(:)
    real(real64), allocatable :: ref(:, :), bound(:, :)
    integer :: n, k, i

    n = size(c, 2)
    k = size(a, 2)
    if (int(size(c, 1), int64) * n * k <= FULL_CHECK_MAX_FMAS .or. n <= SAMPLED_COLUMNS) then
      allocate(cols(n))
      do i = 1, n
        cols(i) = i
      end do
    else
      ! Evenly spread columns, first and last included, so edge tiles are always checked.
      allocate(cols(SAMPLED_COLUMNS))
      do i = 1, SAMPLED_COLUMNS
        cols(i) = 1 + ((i - 1) * (n - 1)) / (SAMPLED_COLUMNS - 1)
      end do
    end if
    allocate(ref(size(c, 1), size(cols)), bound(size(c, 1), size(cols)))
    ref = matmul(a, b(:, cols))
    bound = 2.0_real64 * (k + 1) * epsilon(1.0_real64) * matmul(abs(a), abs(b(:, cols)))
    product_ok = all(abs(c(:, cols) - ref) <= bound)
  end function product_ok

  !> TFLOP/s of `runs` products of m x k by k x n taking `ms` milliseconds in all.
  real(real64) function tflops(m, n, k, runs, ms)
    integer(int64), intent(in) :: m, n, k
    integer, intent(in) :: runs
    real, intent(in) :: ms
    tflops = 2.0_real64 * real(m, real64) * real(n, real64) * real(k, real64) * runs &
             / (real(ms, real64) * 1.0e-3_real64) / 1.0e12_real64
  end function tflops

  !> " Device: <name>" for the current device; stops with the library's message when there is
  !> no usable device.
  subroutine print_device(info)
    type(tcgemm_device_info), intent(out) :: info
    call tcgemm_device_info_get(info)
    write (output_unit, '(a,a)') ' Device: ', tcgemm_device_name(info)
  end subroutine print_device

  !> The article's last line: " Test passed[, TFlops: x]" or " Test FAILED" (then a non-zero exit).
  subroutine print_result(ok, tflop_rate)
    logical, intent(in) :: ok
    real(real64), intent(in), optional :: tflop_rate
    if (.not. ok) then
      write (output_unit, '(/,a)') ' Test FAILED'
      error stop 1
    end if
    if (present(tflop_rate)) then
      write (output_unit, '(/,a,f12.6)') ' Test passed, TFlops: ', tflop_rate
    else
      write (output_unit, '(/,a)') ' Test passed'
    end if
  end subroutine print_result
end module example_util
