!> The bind(C) types tcgemm_config, tcgemm_device_info and tcgemm_wmma_config must have the C structs' size and
!> member offsets (a drifted field would silently shift every later one). The C side of the
!> comparison is layout_probe.c, compiled by the C compiler against tcgemm.h.
program test_layout_cpu
  use, intrinsic :: iso_c_binding, only: c_int32_t, c_int64_t, c_size_t, c_sizeof, c_loc, c_intptr_t, &
                                         c_ptr
  use tcgemm
  use tcgemm_c, only: tcgemm_wmma_config  ! the raw bind(C) layer (the high-level module takes precisions)
  use test_support, only: expect, finish_tests
  implicit none

  interface
    function probe_struct_size(which) result(bytes) bind(C, name="tcgemm_probe_struct_size")
      import :: c_int32_t, c_int64_t
      integer(c_int32_t), value :: which
      integer(c_int64_t) :: bytes
    end function probe_struct_size
    function probe_struct_offset(which, field) result(offset) bind(C, name="tcgemm_probe_struct_offset")
      import :: c_int32_t, c_int64_t
      integer(c_int32_t), value :: which, field
      integer(c_int64_t) :: offset
    end function probe_struct_offset
  end interface

  type(tcgemm_config), target :: config
  type(tcgemm_device_info), target :: info
  type(tcgemm_wmma_config), target :: wmma

  ! Member addresses in layout_probe.c's field order, each struct numbered as there.
  call check_struct('tcgemm_config', 0, c_sizeof(config), offset_of(c_loc(config)), &
                    [offset_of(c_loc(config%family)), offset_of(c_loc(config%tile_m)), &
                     offset_of(c_loc(config%tile_n)), offset_of(c_loc(config%tile_k)), &
                     offset_of(c_loc(config%pad_a)), offset_of(c_loc(config%pad_b)), &
                     offset_of(c_loc(config%stages)), offset_of(c_loc(config%k_splits))])
  call check_struct('tcgemm_device_info', 1, c_sizeof(info), offset_of(c_loc(info)), &
                    [offset_of(c_loc(info%name)), offset_of(c_loc(info%device)), &
                     offset_of(c_loc(info%cc_major)), offset_of(c_loc(info%cc_minor)), &
                     offset_of(c_loc(info%sm_count)), &
                     offset_of(c_loc(info%shared_memory_per_block_optin)), &
                     offset_of(c_loc(info%shared_memory_per_sm)), offset_of(c_loc(info%global_memory))])
  call check_struct('tcgemm_wmma_config', 2, c_sizeof(wmma), offset_of(c_loc(wmma)), &
                    [offset_of(c_loc(wmma%shape)), offset_of(c_loc(wmma%tile)), &
                     offset_of(c_loc(wmma%tile_k)), offset_of(c_loc(wmma%pad_a)), &
                     offset_of(c_loc(wmma%pad_b)), offset_of(c_loc(wmma%stages)), &
                     offset_of(c_loc(wmma%tile_n)), offset_of(c_loc(wmma%reserved))])
  call finish_tests()

contains

  !> The size of struct `which` and its members' offsets (addresses minus the struct's) against the C compiler's.
  subroutine check_struct(name, which, bytes, base, addresses)
    character(*), intent(in) :: name
    integer, intent(in) :: which
    integer(c_size_t), intent(in) :: bytes
    integer(c_int64_t), intent(in) :: base, addresses(:)
    integer :: i
    call expect(int(bytes, c_int64_t) == probe_struct_size(int(which, c_int32_t)), 'sizeof(' // name // ')')
    do i = 1, size(addresses)
      call expect(addresses(i) - base == probe_struct_offset(int(which, c_int32_t), int(i - 1, c_int32_t)), &
                  name // ' member ' // char(ichar('0') + i) // ' offset')
    end do
  end subroutine check_struct

  !> An address as an integer (c_ptr is opaque; its bits are the address on every target we build).
  integer(c_int64_t) function offset_of(p)
    type(c_ptr), intent(in) :: p
    offset_of = int(transfer(p, 0_c_intptr_t), c_int64_t)
  end function offset_of
end program test_layout_cpu
