!> A blocked right-looking LU (no pivoting) on a host array, the way LAPACK codes call DGEMM:
!> each trailing update passes elements of one array with its leading dimension,
!>   call tcgemm_dgemm('N', 'N', n-j-nb+1, n-j-nb+1, nb, -1, a(j+nb, j), lda, a(j, j+nb), lda,
!>                     1, a(j+nb, j+nb), lda)
!> so A, B and C are three blocks of the same array, and every update reads blocks the previous
!> one wrote. The same sequence with a triple loop in place of tcgemm_dgemm is the reference.
!> A wrong address, a packed copy or a misread lda would be off by O(1); the tolerance is a few
!> n * eps relative to |L| |U|, the scale of LU's rounding errors. Exits 77 without a GPU.
program test_lu_update_gpu
  use, intrinsic :: iso_fortran_env, only: real64
  use tcgemm
  use test_support
  implicit none

  integer, parameter :: N = 300, NB = 32
  !> Padding rows below the matrix hold PAD_SENTINEL, which no update may touch.
  integer, parameter :: LDA = N + 5
  integer, parameter :: MSG_LEN = 512
  !> Tolerance factor on n * eps (LU's backward error is gamma_n |L| |U|; 4 leaves room for the
  !> two orders of summation and for FMA).
  real(real64), parameter :: TOL_FACTOR = 4.0_real64

  type(tcgemm_device_info) :: info
  real(real64), allocatable :: a0(:, :), a_gpu(:, :), a_ref(:, :)
  integer :: i

  call skip_without_device(info)
  allocate(a0(LDA, N), a_gpu(LDA, N), a_ref(LDA, N))
  call random_matrix(a0)
  ! Diagonally dominant (off-diagonal row sums about n/2): LU without pivoting is stable.
  do i = 1, N
    a0(i, i) = a0(i, i) + real(N, real64)
  end do
  a0(N + 1:, :) = PAD_SENTINEL
  a_gpu = a0
  a_ref = a0

  call blocked_lu(a_gpu, .true.)
  call blocked_lu(a_ref, .false.)
  call check_factors(a0, a_gpu, a_ref)
  call finish_tests()

contains

  !> LU of a(1:N, 1:N) in place, in panels of NB columns; `on_gpu` selects tcgemm_dgemm or the
  !> triple loop for the trailing updates (everything else is the same code).
  subroutine blocked_lu(a, on_gpu)
    real(real64), intent(inout) :: a(LDA, N)
    logical, intent(in) :: on_gpu
    integer :: j, jb, trailing, stat
    character(len=MSG_LEN) :: errmsg
    character(len=64) :: what

    do j = 1, N, NB
      jb = min(NB, N - j + 1)
      call factor_panel(a, j, jb)
      if (j + jb > N) exit
      call solve_row_block(a, j, jb)
      trailing = N - j - jb + 1
      if (on_gpu) then
        errmsg = ''
        call tcgemm_dgemm('N', 'N', trailing, trailing, jb, -1.0_real64, a(j + jb, j), LDA, &
                          a(j, j + jb), LDA, 1.0_real64, a(j + jb, j + jb), LDA, stat=stat, &
                          errmsg=errmsg)
        write (what, '(a,i0,a,i0,a,i0)') 'update at j = ', j, ': ', trailing, 'x', trailing
        if (stat /= 0) call expect(.false., trim(what) // ': stat = 0 ' // trim(errmsg))
      else
        call update_by_loops(a, j, jb)
      end if
    end do
  end subroutine blocked_lu

  !> Unblocked LU of columns j..j+jb-1, rows j..N: L below the diagonal (unit diagonal implied),
  !> U on and above it.
  subroutine factor_panel(a, j, jb)
    real(real64), intent(inout) :: a(LDA, N)
    integer, intent(in) :: j, jb
    integer :: p, col

    do p = j, j + jb - 1
      a(p + 1:N, p) = a(p + 1:N, p) / a(p, p)
      do col = p + 1, j + jb - 1
        a(p + 1:N, col) = a(p + 1:N, col) - a(p + 1:N, p) * a(p, col)
      end do
    end do
  end subroutine factor_panel

  !> U12 <- L11^-1 A12 (rows j..j+jb-1, columns j+jb..N; L11 unit lower triangular).
  subroutine solve_row_block(a, j, jb)
    real(real64), intent(inout) :: a(LDA, N)
    integer, intent(in) :: j, jb
    integer :: p

    do p = j + 1, j + jb - 1
      a(p, j + jb:N) = a(p, j + jb:N) - matmul(a(p, j:p - 1), a(j:p - 1, j + jb:N))
    end do
  end subroutine solve_row_block

  !> A22 <- A22 - A21 A12 with a plain triple loop: the reference for tcgemm_dgemm.
  subroutine update_by_loops(a, j, jb)
    real(real64), intent(inout) :: a(LDA, N)
    integer, intent(in) :: j, jb
    integer :: row, col, l
    real(real64) :: dot

    do col = j + jb, N
      do row = j + jb, N
        dot = 0.0_real64
        do l = j, j + jb - 1
          dot = dot + a(row, l) * a(l, col)
        end do
        a(row, col) = a(row, col) - dot
      end do
    end do
  end subroutine update_by_loops

  !> L (unit lower) and U of a factored array.
  subroutine split_factors(a, l, u)
    real(real64), intent(in) :: a(LDA, N)
    real(real64), intent(out) :: l(N, N), u(N, N)
    integer :: j

    l = 0.0_real64
    u = 0.0_real64
    do j = 1, N
      l(j, j) = 1.0_real64
      l(j + 1:N, j) = a(j + 1:N, j)
      u(1:j, j) = a(1:j, j)
    end do
  end subroutine split_factors

  subroutine check_factors(a0, a_gpu, a_ref)
    real(real64), intent(in) :: a0(LDA, N), a_gpu(LDA, N), a_ref(LDA, N)
    real(real64), allocatable :: l(:, :), u(:, :), scale(:, :), bound(:, :)
    real(real64) :: eps
    integer :: i, j

    allocate(l(N, N), u(N, N), scale(N, N), bound(N, N))
    eps = epsilon(1.0_real64)
    call split_factors(a_ref, l, u)
    scale = matmul(abs(l), abs(u))
    ! Below the diagonal the factor is L = (A - ...) / U(j, j): its rounding scales down with it.
    do j = 1, N
      do i = 1, N
        bound(i, j) = TOL_FACTOR * N * eps * scale(i, j)
        if (i > j) bound(i, j) = bound(i, j) / abs(u(j, j))
      end do
    end do
    call expect(all(abs(a_gpu(1:N, :) - a_ref(1:N, :)) <= bound), &
                'factors with tcgemm_dgemm updates = factors with triple-loop updates')
    if (.not. all(abs(a_gpu(1:N, :) - a_ref(1:N, :)) <= bound)) &
      print '(a,es10.3,a,es10.3)', '        max |difference| = ', &
            maxval(abs(a_gpu(1:N, :) - a_ref(1:N, :))), ', max bound = ', maxval(bound)
    call expect(all(a_gpu(N + 1:, :) == PAD_SENTINEL), 'rows n+1..lda untouched')

    ! Independent of the reference: the factors multiply back to A0 (backward error).
    call split_factors(a_gpu, l, u)
    call expect(all(abs(matmul(l, u) - a0(1:N, :)) <= TOL_FACTOR * N * eps * scale), &
                'L U = A0 within n eps |L| |U|')
  end subroutine check_factors

end program test_lu_update_gpu
