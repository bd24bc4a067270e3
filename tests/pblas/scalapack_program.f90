! An ordinary ScaLAPACK program, written and linked without anything of tcgemm: C = alpha A B' + beta C
! on a process grid from BLACS, then the norm of C. The preload test runs it as it is and with
! LD_PRELOAD=libtcgemm_pblas.so, and compares what it prints.
!   mpirun -np P scalapack_program [n]
program scalapack_program
  implicit none
  integer, parameter :: nb = 32
  integer :: me, np, ctxt, nprow, npcol, myrow, mycol, n, lr, lc, info, i, j, gi, gj
  integer :: desca(9), descb(9), descc(9)
  double precision, allocatable :: a(:,:), b(:,:), c(:,:), work(:)
  double precision :: cnorm
  character(len=16) :: arg
  integer, external :: numroc
  double precision, external :: pdlange

  n = 300
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  call blacs_pinfo(me, np)
  nprow = 1
  do while ((nprow + 1) * (nprow + 1) <= np)
    nprow = nprow + 1
  end do
  npcol = np / nprow
  call blacs_get(-1, 0, ctxt)
  call blacs_gridinit(ctxt, 'Row', nprow, npcol)
  call blacs_gridinfo(ctxt, nprow, npcol, myrow, mycol)
  if (myrow >= 0) then
    lr = numroc(n, nb, myrow, 0, nprow)
    lc = numroc(n, nb, mycol, 0, npcol)
    call descinit(desca, n, n, nb, nb, 0, 0, ctxt, max(1, lr), info)
    call descinit(descb, n, n, nb, nb, 0, 0, ctxt, max(1, lr), info)
    call descinit(descc, n, n, nb, nb, 0, 0, ctxt, max(1, lr), info)
    allocate (a(max(1, lr), max(1, lc)), b(max(1, lr), max(1, lc)), c(max(1, lr), max(1, lc)), work(max(1, lr)))
    ! Global element (gi, gj) from a formula, so that every grid holds the same matrices.
    do j = 1, lc
      gj = ((j - 1) / nb * npcol + mycol) * nb + mod(j - 1, nb) + 1
      do i = 1, lr
        gi = ((i - 1) / nb * nprow + myrow) * nb + mod(i - 1, nb) + 1
        a(i, j) = sin(dble(gi + 2 * gj))
        b(i, j) = cos(dble(3 * gi - gj))
        c(i, j) = dble(mod(gi * gj, 7)) / 7.0d0
      end do
    end do
    call pdgemm('N', 'T', n, n, n, 1.5d0, a, 1, 1, desca, b, 1, 1, descb, -0.5d0, c, 1, 1, descc)
    cnorm = pdlange('F', n, n, c, 1, 1, descc, work)
    if (myrow == 0 .and. mycol == 0) print '(a, i0, a, i0, a, i0, a, es24.16)', 'n = ', n, ' grid ', nprow, 'x', &
      npcol, ' ||C||_F = ', cnorm
    call blacs_gridexit(ctxt)
  end if
  call blacs_exit(0)
end program scalapack_program
