!> The element operator of element_operator.f90, kept on the GPU: many steps, no copies between.
!>
!> Every step applies one small p x p matrix M to the (p, nvars) nodal values of every element,
!> U_e <- M U_e. Here M = I + dt L, one explicit diffusion step inside each element (L the 1D
!> second difference with insulated ends, dt = 1/4): M is non-negative with rows summing to 1,
!> so the values stay bounded and rounding errors do not grow from step to step. Element data
!> that lives on the GPU is a type(tcgemm_device_batch); it is allocated and uploaded once, each
!> step is one batched call on device batches (between two batches in turn: C must not be the
!> matrix the product reads), and the result comes back once:
!>
!>   call tcgemm_device_allocate(m_d, source=m)     ! p x p, shared by every element
!>   call tcgemm_device_allocate(u_d, source=u)     ! u(p, nvars, nelem): nelem matrices
!>   call tcgemm_device_allocate(w_d, mold=u)
!>   do step = 1, nsteps
!>     call tcgemm_dgemm_batched('N', 'N', 1.0_real64, m_d, u_d, 0.0_real64, w_d)
!>     swap = u_d; u_d = w_d; w_d = swap            ! handles: the data stays where it is
!>   end do
!>   call tcgemm_copy(u_d, u)
!>
!> The host-array form of element_operator.f90 moves every element over the link on each call;
!> here only the first upload and the last download do. The result is checked against
!> M^nsteps U_e computed on the host (M^nsteps formed once), within the rounding bound of
!> nsteps non-expansive steps of p-term dot products, on both sides.
!>
!> Usage: tcgemm-fortran-example-element_operator_device [P NELEM NVARS NSTEPS]
!>        (default 8 200000 8 100)
program element_operator_device
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use tcgemm, only: tcgemm_device_batch, tcgemm_device_matrix, tcgemm_device_allocate, &
                    tcgemm_device_deallocate, tcgemm_copy, tcgemm_dgemm_batched, &
                    tcgemm_synchronize
  implicit none

  integer :: p, nelem, nvars, nsteps, step, e, i, stat
  real(real64), allocatable :: m(:, :), power(:, :), u(:, :, :), expected(:, :, :)
  real(real64) :: dt, loop_seconds, total_seconds, bound, flops, umax
  integer(int64) :: t0, t1, t2, t3, rate
  type(tcgemm_device_matrix) :: m_d
  type(tcgemm_device_batch) :: u_d, w_d, swap
  character(len=256) :: errmsg

  p = int_arg(1, 8)
  nelem = int_arg(2, 200000)
  nvars = int_arg(3, 8)
  nsteps = int_arg(4, 100)
  print '(a,i0,a,i0,a,i0,a,i0)', ' p = ', p, ', elements = ', nelem, ', variables = ', nvars, &
        ', steps = ', nsteps

  ! M = I + dt L: 1 - 2 dt on the diagonal (1 - dt at the insulated ends), dt next to it.
  dt = 0.25_real64
  allocate (m(p, p), power(p, p), u(p, nvars, nelem), expected(p, nvars, nelem))
  m = 0.0_real64
  do i = 1, p
    m(i, i) = 1.0_real64
    if (i > 1) then
      m(i, i - 1) = dt
      m(i, i) = m(i, i) - dt
    end if
    if (i < p) then
      m(i, i + 1) = dt
      m(i, i) = m(i, i) - dt
    end if
  end do
  call random_number(u)
  u = u - 0.5_real64
  umax = maxval(abs(u))

  ! The reference: M^nsteps once, then one product per element.
  power = 0.0_real64
  do i = 1, p
    power(i, i) = 1.0_real64
  end do
  do step = 1, nsteps
    power = matmul(m, power)
  end do
  do e = 1, nelem
    expected(:, :, e) = matmul(power, u(:, :, e))
  end do

  ! Upload once (the first call also pays for CUDA start-up).
  call system_clock(t0, rate)
  call tcgemm_device_allocate(m_d, source=m)
  call tcgemm_device_allocate(u_d, source=u)
  call tcgemm_device_allocate(w_d, mold=u)
  call system_clock(t1)
  do step = 1, nsteps
    call tcgemm_dgemm_batched('N', 'N', 1.0_real64, m_d, u_d, 0.0_real64, w_d, stat=stat, &
                              errmsg=errmsg)
    if (stat /= 0) then
      print '(a)', trim(errmsg)
      error stop 1
    end if
    swap = u_d
    u_d = w_d
    w_d = swap
  end do
  call tcgemm_synchronize()           ! the launches are asynchronous
  call system_clock(t2)
  call tcgemm_copy(u_d, u)            ! download once
  call system_clock(t3)
  call tcgemm_device_deallocate(m_d)
  call tcgemm_device_deallocate(u_d)
  call tcgemm_device_deallocate(w_d)

  flops = 2.0_real64 * p * p * real(nvars, real64) * real(nelem, real64) * nsteps
  loop_seconds = max(real(t2 - t1, real64) / real(rate, real64), 1.0e-9_real64)
  total_seconds = max(real(t3 - t0, real64) / real(rate, real64), 1.0e-9_real64)
  print '(a,f10.3,a,f9.2,a)', ' steps on the GPU: ', 1.0e3_real64 * loop_seconds / nsteps, &
        ' ms a step, ', 1.0e-9_real64 * flops / loop_seconds, ' GFLOP/s'
  print '(a,f10.3,a,f9.2,a)', ' with the copies:  ', 1.0e3_real64 * total_seconds, ' ms, ', &
        1.0e-9_real64 * flops / total_seconds, ' GFLOP/s (first call: CUDA start-up included)'

  ! A step adds at most gamma max|U_0| of rounding error, gamma = 2 (p + 2) eps for a p-term dot
  ! product, and passes earlier errors on without growth (rows of M are non-negative and sum to
  ! 1): nsteps gamma max|U_0| on the GPU. The reference's M^nsteps carries nsteps gamma in the
  ! max norm, and its product with U_e one gamma more.
  bound = (2 * nsteps + 1) * 2.0_real64 * (p + 2) * epsilon(1.0_real64) * umax
  if (.not. all(abs(u - expected) <= bound)) then
    print '(a,es10.3,a,es10.3)', ' Test FAILED, max |error| = ', maxval(abs(u - expected)), &
          ', bound ', bound
    error stop 1
  end if
  print '(a,es10.3,a,es10.3,a)', ' Test PASSED: max |error| = ', maxval(abs(u - expected)), &
        ' within the rounding bound ', bound, ' for every element'

contains

  integer function int_arg(i, default)
    integer, intent(in) :: i, default
    character(len=32) :: text
    int_arg = default
    if (command_argument_count() < i) return
    call get_command_argument(i, text)
    read (text, *) int_arg
  end function int_arg
end program element_operator_device
