!> tcgemm_dgemm_batched on host arrays (rank-3 b and c, rank-3 or rank-2 a). Argument `cpu`
!> (ctest fortran_batched_errors_cpu): the module's shape checks and the library's argument
!> checks, with or without a GPU: stat, an errmsg naming the argument, C unchanged; batch = 0
!> returns at once. Argument `gpu` (fortran_batched_host_gpu): every form against a plain
!> Fortran loop, integer-valued data (exact in FP64), leading dimensions past the rows, a shared
!> rank-2 a, beta = 0 over a NaN-poisoned C, padding rows of C unchanged, a non-contiguous
!> section of C, int64 sizes.
program test_batched_host
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: ieee_arithmetic, only: ieee_is_nan
  use tcgemm
  use test_support
  implicit none

  character(len=16) :: which
  type(tcgemm_device_info) :: info

  call get_command_argument(1, which)
  select case (trim(which))
  case ('cpu')
    call test_errors()
  case ('gpu')
    call skip_without_device(info)
    call test_products()
  case default
    error stop 'usage: test_batched_host cpu|gpu'
  end select
  call finish_tests()

contains

  subroutine test_errors()
    real(real64) :: a(4, 4, 5), a_small(4, 3, 5), a2(4, 4), b(4, 4, 5), c(4, 4, 5), c_before(4, 4, 5)
    integer :: stat
    integer(int64) :: stat64
    character(len=512) :: errmsg

    print '(a)', 'host-array tcgemm_dgemm_batched, argument checks'
    a = 1.0_real64
    a_small = 1.0_real64
    a2 = 1.0_real64
    b = 2.0_real64
    c = 3.0_real64
    c_before = c
    errmsg = ''
    call tcgemm_dgemm_batched('N', 'N', 4, 4, 4, 1.0_real64, a, 3, b, 4, 0.0_real64, c, 4, 5, &
                              stat=stat, errmsg=errmsg)
    call expect_status('lda < m (library)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       ['argument 8 (lda)'])
    errmsg = ''
    call tcgemm_dgemm_batched('X', 'N', 4, 4, 4, 1.0_real64, a, 4, b, 4, 0.0_real64, c, 4, 5, &
                              stat=stat, errmsg=errmsg)
    call expect_status('transa X', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, ['argument 1'])
    errmsg = ''
    call tcgemm_dgemm_batched('N', 'N', 4, 4, 4, 1.0_real64, a, 4, b, 4, 0.0_real64, c, 4, -1, &
                              stat=stat, errmsg=errmsg)
    call expect_status('batch -1 (library)', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       ['(batch)'])
    errmsg = ''
    call tcgemm_dgemm_batched('N', 'N', 4, 4, 4, 1.0_real64, a_small, 4, b, 4, 0.0_real64, c, 4, &
                              5, stat=stat, errmsg=errmsg)
    call expect_status('a(:, :, g) too small for k = 4', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'argument 7 (a)', 'a(:, :, g) is 4 x 3'])
    call expect(tcgemm_last_error_argument() == 7, 'a too small: last error argument 7')
    errmsg = ''
    call tcgemm_dgemm_batched('T', 'N', 4, 4, 4, 1.0_real64, a, 4, a_small, 4, 0.0_real64, c, 4, &
                              5, stat=stat, errmsg=errmsg)
    call expect_status('b(:, :, g) too small for n = 4', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'argument 9 (b)'])
    errmsg = ''
    call tcgemm_dgemm_batched('N', 'N', 4, 4, 4, 1.0_real64, a, 4, b, 4, 0.0_real64, c, 4, 6, &
                              stat=stat, errmsg=errmsg)
    call expect_status('size(c, 3) < batch', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=40) :: 'argument 7 (a)', 'less than batch = 6'])
    errmsg = ''
    call tcgemm_dgemm_batched('N', 'N', 4, 4, 4, 0.0_real64, a, 4, b, 4, 0.0_real64, c, 4, 6, &
                              stat=stat, errmsg=errmsg)
    call expect_status('alpha = 0: size(c, 3) < batch', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=40) :: 'argument 12 (c)', 'less than batch = 6'])
    errmsg = ''
    call tcgemm_dgemm_batched('N', 'N', 4, 5, 4, 1.0_real64, a2, 4, b, 4, 0.0_real64, c, 4, 5, &
                              stat=stat, errmsg=errmsg)
    call expect_status('n = 5 past b', stat, TCGEMM_ERROR_INVALID_ARGUMENT, errmsg, &
                       [character(len=32) :: 'argument 9 (b)'])
    errmsg = ''
    call tcgemm_dgemm_batched('N', 'N', 4, 4, 5, 1.0_real64, a2, 4, b, 5, 0.0_real64, c, 4, 5, &
                              stat=stat, errmsg=errmsg)
    call expect_status('rank-2 a too small for k = 5', stat, TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=48) :: 'argument 7 (a)', 'a is 4 x 4'])
    errmsg = ''
    call tcgemm_dgemm_batched('N', 'N', 4_int64, 4_int64, 4_int64, 1.0_real64, a, 4_int64, b, &
                              4_int64, 0.0_real64, c, 4_int64, 7_int64, stat=stat64, errmsg=errmsg)
    call expect_status('int64 sizes and stat', int(stat64), TCGEMM_ERROR_INVALID_ARGUMENT, &
                       errmsg, [character(len=32) :: 'less than batch = 7'])
    call expect(all(c == c_before), 'C unchanged by the refused calls')

    ! Quick returns need no device: batch = 0, m = 0, alpha = 0 with beta = 1.
    call tcgemm_dgemm_batched('N', 'N', 4, 4, 4, 1.0_real64, a, 4, b, 4, 0.0_real64, c, 4, 0, &
                              stat=stat)
    call expect(stat == 0, 'batch = 0: stat 0')
    call tcgemm_dgemm_batched('N', 'N', 0, 4, 4, 1.0_real64, a2, 4, b, 4, 0.0_real64, c, 4, 5, &
                              stat=stat)
    call expect(stat == 0, 'm = 0 (rank-2 a): stat 0')
    call tcgemm_dgemm_batched('N', 'N', 4, 4, 4, 0.0_real64, a, 4, b, 4, 1.0_real64, c, 4, 5, &
                              stat=stat)
    call expect(stat == 0, 'alpha = 0, beta = 1: stat 0')
    call expect(all(c == c_before), 'C unchanged by the quick returns')
  end subroutine test_errors

  !> Integer values in [-4, 4], different for each element and slab.
  subroutine fill(x, shift)
    real(real64), intent(out) :: x(:, :, :)
    integer, intent(in) :: shift
    integer :: i, j, g
    do g = 1, size(x, 3)
      do j = 1, size(x, 2)
        do i = 1, size(x, 1)
          x(i, j, g) = real(mod(3 * i + 7 * j + 5 * g + shift, 9) - 4, real64)
        end do
      end do
    end do
  end subroutine fill

  !> c(1:m, 1:n, g) <- alpha op(a_g) op(b_g) + beta c(1:m, 1:n, g), the plain loop.
  subroutine reference(transa, transb, m, n, k, alpha, a, b, beta, c, batch, shared_a)
    character(len=1), intent(in) :: transa, transb
    integer, intent(in) :: m, n, k, batch
    real(real64), intent(in) :: alpha, beta
    real(real64), intent(in) :: a(:, :, :), b(:, :, :)
    real(real64), intent(inout) :: c(:, :, :)
    logical, intent(in) :: shared_a
    integer :: i, j, l, g, ga
    real(real64) :: s, x, y
    do g = 1, batch
      ga = g
      if (shared_a) ga = 1
      do j = 1, n
        do i = 1, m
          s = 0.0_real64
          do l = 1, k
            if (transa == 'N') then
              x = a(i, l, ga)
            else
              x = a(l, i, ga)
            end if
            if (transb == 'N') then
              y = b(l, j, g)
            else
              y = b(j, l, g)
            end if
            s = s + x * y
          end do
          if (beta == 0.0_real64) then
            c(i, j, g) = alpha * s
          else
            c(i, j, g) = alpha * s + beta * c(i, j, g)
          end if
        end do
      end do
    end do
  end subroutine reference

  subroutine one_case(transa, transb, m, n, k, batch, alpha, beta, pad, shared_a)
    character(len=1), intent(in) :: transa, transb
    integer, intent(in) :: m, n, k, batch, pad
    real(real64), intent(in) :: alpha, beta
    logical, intent(in) :: shared_a
    real(real64), allocatable :: a(:, :, :), b(:, :, :), c(:, :, :), ref(:, :, :)
    integer :: ar, ac, br, bc, stat
    character(len=512) :: errmsg
    character(len=96) :: label

    write (label, '(a,a,a,4(i0,1x),a,l1,a,i0)') transa, transb, ' m n k batch = ', m, n, k, &
      batch, 'shared a ', shared_a, ' pad ', pad
    ar = merge(m, k, transa == 'N')
    ac = merge(k, m, transa == 'N')
    br = merge(k, n, transb == 'N')
    bc = merge(n, k, transb == 'N')
    if (shared_a) then
      allocate (a(ar + pad, ac, 1))
    else
      allocate (a(ar + pad, ac, batch))
    end if
    allocate (b(br + pad, bc, batch), c(m + pad, n, batch))
    call fill(a, 1)
    call fill(b, 2)
    call fill(c, 3)
    if (beta == 0.0_real64) c(1:m, :, :) = nan()
    allocate (ref, source=c)
    call reference(transa, transb, m, n, k, alpha, a, b, beta, ref, batch, shared_a)
    errmsg = ''
    if (shared_a) then
      call tcgemm_dgemm_batched(transa, transb, m, n, k, alpha, a(:, :, 1), ar + pad, b, &
                                br + pad, beta, c, m + pad, batch, stat=stat, errmsg=errmsg)
    else
      call tcgemm_dgemm_batched(transa, transb, m, n, k, alpha, a, ar + pad, b, br + pad, beta, &
                                c, m + pad, batch, stat=stat, errmsg=errmsg)
    end if
    call expect(stat == 0, trim(label) // ': stat 0 ' // trim(errmsg))
    call expect(.not. any(ieee_is_nan(c)), trim(label) // ': no NaN in C')
    call expect(all(c == ref), trim(label) // ': C equals the loop (padding rows unchanged)')
  end subroutine one_case

  subroutine test_products()
    real(real64), allocatable :: a(:, :, :), b(:, :, :), c(:, :, :), ref(:, :, :)
    integer :: stat
    character(len=512) :: errmsg

    print '(a)', 'host-array tcgemm_dgemm_batched against a loop'
    call one_case('N', 'N', 8, 8, 8, 100, 1.0_real64, 0.0_real64, 0, .false.)
    call one_case('N', 'T', 5, 7, 3, 37, -0.5_real64, 2.0_real64, 2, .false.)
    call one_case('T', 'N', 16, 4, 9, 20, 2.0_real64, 1.0_real64, 1, .false.)
    call one_case('T', 'T', 12, 12, 12, 9, 1.0_real64, -1.0_real64, 3, .false.)
    call one_case('N', 'N', 8, 12, 8, 500, 1.0_real64, 0.0_real64, 0, .true.)
    call one_case('T', 'N', 10, 3, 10, 64, 1.0_real64, 0.5_real64, 1, .true.)
    call one_case('N', 'N', 130, 6, 20, 3, 1.0_real64, 0.0_real64, 0, .false.)  ! one by one
    call one_case('N', 'N', 6, 6, 6, 11, 0.0_real64, 3.0_real64, 2, .false.)   ! alpha = 0
    call one_case('N', 'N', 6, 6, 6, 1, 1.0_real64, 0.0_real64, 0, .false.)    ! batch 1

    ! A non-contiguous section of C (the compiler copies it in and out) and int64 sizes.
    allocate (a(6, 5, 7), b(5, 4, 7), c(9, 4, 7))
    call fill(a, 4)
    call fill(b, 5)
    call fill(c, 6)
    allocate (ref, source=c)
    call reference('N', 'N', 6, 4, 5, 1.0_real64, a, b, 1.0_real64, ref(2:7, :, :), 7, .false.)
    errmsg = ''
    call tcgemm_dgemm_batched('N', 'N', 6_int64, 4_int64, 5_int64, 1.0_real64, a, 6_int64, b, &
                              5_int64, 1.0_real64, c(2:7, :, :), 6_int64, 7_int64, stat=stat, &
                              errmsg=errmsg)
    call expect(stat == 0, 'section of C, int64 sizes: stat 0 ' // trim(errmsg))
    call expect(all(c == ref), 'section of C: equals the loop, rows outside unchanged')
  end subroutine test_products

end program test_batched_host
