!> Views and a stream: one trailing update of a blocked LU, done in place on the GPU.
!>
!>   A = [ A11  A12 ]   (n x n, A11 is nb x nb)        A22 <- A22 - A21 * A12
!>       [ A21  A22 ]
!>
!> A lives in one device matrix; tcgemm_device_view names its blocks (the device form of the
!> BLAS idiom `a(i, j), lda`: same memory, same leading dimension, nothing copied), and
!> tcgemm_dgemm runs on them on a stream made by tcgemm_stream_create. A view downloads like a
!> matrix (tcgemm_copy), and deallocating it frees nothing: the parent owns the memory.
!>
!> Usage: tcgemm-fortran-example-views_streams [N NB]     (default 2000 256)
program views_streams
  use, intrinsic :: iso_fortran_env, only: real64
  use, intrinsic :: iso_c_binding, only: c_ptr
  use tcgemm
  implicit none

  integer :: n, nb, rest
  real(real64), allocatable :: a(:, :), after(:, :), s(:, :), expected(:, :), bound(:, :)
  type(tcgemm_device_matrix) :: a_d, a21, a12, a22
  type(c_ptr) :: stream

  n = int_arg(1, 2000)
  nb = int_arg(2, 256)
  rest = n - nb
  allocate(a(n, n), after(n, n), s(rest, rest))
  call random_number(a)
  a = a - 0.5_real64
  print '(a,i0,a,i0,a,i0,a,i0,a,i0)', ' N = ', n, ', NB = ', nb, ': A22 (', rest, 'x', rest, &
        ') -= A21 * A12, k = ', nb

  call tcgemm_device_allocate(a_d, source=a)
  a21 = tcgemm_device_view(a_d, nb + 1, 1, rest, nb)
  a12 = tcgemm_device_view(a_d, 1, nb + 1, nb, rest)
  a22 = tcgemm_device_view(a_d, nb + 1, nb + 1, rest, rest)

  call tcgemm_stream_create(stream)
  call tcgemm_dgemm('N', 'N', -1.0_real64, a21, a12, 1.0_real64, a22, stream=stream)
  call tcgemm_stream_synchronize(stream)

  ! The host reference and the rounding bound of an nb-term dot product, elementwise.
  expected = a(nb + 1:, nb + 1:) - matmul(a(nb + 1:, 1:nb), a(1:nb, nb + 1:))
  bound = 2 * (nb + 2) * epsilon(1.0_real64) * &
          (matmul(abs(a(nb + 1:, 1:nb)), abs(a(1:nb, nb + 1:))) + abs(a(nb + 1:, nb + 1:)))
  call tcgemm_copy(a22, s)
  call tcgemm_copy(a_d, after)
  print '(a,es10.3)', ' max |A22 - reference| = ', maxval(abs(s - expected))

  call tcgemm_device_deallocate(a22)     ! a view: forgets the block, frees nothing
  call tcgemm_device_deallocate(a21)
  call tcgemm_device_deallocate(a12)
  call tcgemm_stream_destroy(stream)
  call tcgemm_device_deallocate(a_d)     ! the parent owns the memory

  if (.not. all(abs(s - expected) <= bound)) then
    print '(a)', ' Test FAILED: A22 differs from the reference'
    error stop 1
  end if
  if (.not. (all(after(:, 1:nb) == a(:, 1:nb)) .and. all(after(1:nb, :) == a(1:nb, :)))) then
    print '(a)', ' Test FAILED: the update wrote outside A22'
    error stop 1
  end if
  print '(a)', ' Test passed'

contains

  !> The i-th command-line argument as an integer, or `default` when it is absent.
  integer function int_arg(i, default)
    integer, intent(in) :: i, default
    character(len=32) :: text
    int_arg = default
    if (command_argument_count() < i) return
    call get_command_argument(i, text)
    read (text, *) int_arg
  end function int_arg
end program views_streams
