!> A small dense element operator applied to every element of a mesh in one call.
!>
!> High-order finite-element and spectral-element codes apply the same small matrix D (order p,
!> e.g. a 1D differentiation or interpolation matrix, p = 4..16) to the nodal values of every
!> element: C_e = D * U_e for e = 1..nelem, U_e of shape (p, nvars). One call of
!> tcgemm_dgemm_batched does them all: D is a rank-2 array shared by every product (stride 0),
!> U and C are rank-3 arrays u(p, nvars, nelem) and c(p, nvars, nelem), and the products run in
!> one launch of the library's batched kernel on the tensor cores.
!>
!>   call tcgemm_dgemm_batched('N', 'N', p, nvars, p, 1.0_real64, d, p, u, p, 0.0_real64, c, p, &
!>                             nelem)
!>
!> The result is checked against a plain loop; the time includes the copies to and from the GPU
!> (each element's data crosses the link once; 2 p^2 nvars flops per element is little work per
!> byte, so this host-array form is bound by the link: keep the data on the GPU for speed).
!>
!> Usage: tcgemm-fortran-example-element_operator [P NELEM NVARS]     (default 8 200000 8)
program element_operator
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use tcgemm, only: tcgemm_dgemm_batched
  implicit none

  integer :: p, nelem, nvars, e, i, j, l, call_no, stat
  real(real64), allocatable :: d(:, :), u(:, :, :), c(:, :, :), expected(:, :, :), bound(:, :, :)
  real(real64) :: seconds, s, mag
  integer(int64) :: t0, t1, rate
  character(len=256) :: errmsg

  p = int_arg(1, 8)
  nelem = int_arg(2, 200000)
  nvars = int_arg(3, 8)
  allocate (d(p, p), u(p, nvars, nelem), c(p, nvars, nelem), expected(p, nvars, nelem), &
            bound(p, nvars, nelem))
  call random_number(d)
  call random_number(u)
  d = d - 0.5_real64
  u = u - 0.5_real64
  print '(a,i0,a,i0,a,i0)', ' p = ', p, ', elements = ', nelem, ', variables = ', nvars

  ! The loop every element would otherwise run, and the rounding bound of a p-term dot product.
  do e = 1, nelem
    do j = 1, nvars
      do i = 1, p
        s = 0.0_real64
        mag = 0.0_real64
        do l = 1, p
          s = s + d(i, l) * u(l, j, e)
          mag = mag + abs(d(i, l) * u(l, j, e))
        end do
        expected(i, j, e) = s
        bound(i, j, e) = 2 * (p + 2) * epsilon(1.0_real64) * mag
      end do
    end do
  end do

  ! The first call also pays for CUDA start-up and the device buffers; the second reuses them.
  do call_no = 1, 2
    c = huge(1.0_real64)  ! beta = 0: C is not read
    call system_clock(t0, rate)
    call tcgemm_dgemm_batched('N', 'N', p, nvars, p, 1.0_real64, d, p, u, p, 0.0_real64, c, p, &
                              nelem, stat=stat, errmsg=errmsg)
    call system_clock(t1)
    if (stat /= 0) then
      print '(a)', trim(errmsg)
      error stop 1
    end if
    seconds = max(real(t1 - t0, real64) / real(rate, real64), 1.0e-9_real64)
    print '(a,i0,a,f10.3,a,f9.2,a)', ' call ', call_no, ': ', 1.0e3_real64 * seconds, ' ms, ', &
          2.0e-9_real64 * p * p * real(nvars, real64) * nelem / seconds, &
          ' GFLOP/s including the copies'
    if (.not. all(abs(c - expected) <= bound)) then
      print '(a,es10.3)', ' Test FAILED, max |error| = ', maxval(abs(c - expected))
      error stop 1
    end if
  end do
  print '(a)', ' Test PASSED: every element equals the loop within the rounding bound'

contains

  integer function int_arg(i, default)
    integer, intent(in) :: i, default
    character(len=32) :: text
    int_arg = default
    if (command_argument_count() < i) return
    call get_command_argument(i, text)
    read (text, *) int_arg
  end function int_arg
end program element_operator
