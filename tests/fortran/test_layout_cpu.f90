!> The bind(C) types tcgemm_config, tcgemm_device_info and tcgemm_wmma_config must have the C structs' size and
!> member offsets (a drifted field would silently shift every later one). The C side of the
!> comparison is layout_probe.c, compiled by the C compiler against tcgemm.h.
program test_layout_cpu
  use, intrinsic :: iso_c_binding, only: c_int32_t, c_int64_t, c_sizeof, c_loc, c_intptr_t, &
                                         c_ptr
  use tcgemm
  use tcgemm_c, only: tcgemm_wmma_config  ! the raw bind(C) layer (the high-level module takes precisions)
  use test_support, only: expect, finish_tests
  implicit none

  interface
    function probe_config_size() result(bytes) bind(C, name="tcgemm_probe_config_size")
      import :: c_int64_t
      integer(c_int64_t) :: bytes
    end function probe_config_size
    function probe_config_offset(field) result(offset) bind(C, name="tcgemm_probe_config_offset")
      import :: c_int32_t, c_int64_t
      integer(c_int32_t), value :: field
      integer(c_int64_t) :: offset
    end function probe_config_offset
    function probe_info_size() result(bytes) bind(C, name="tcgemm_probe_device_info_size")
      import :: c_int64_t
      integer(c_int64_t) :: bytes
    end function probe_info_size
    function probe_info_offset(field) result(offset) &
        bind(C, name="tcgemm_probe_device_info_offset")
      import :: c_int32_t, c_int64_t
      integer(c_int32_t), value :: field
      integer(c_int64_t) :: offset
    end function probe_info_offset
    function probe_wmma_size() result(bytes) bind(C, name="tcgemm_probe_wmma_config_size")
      import :: c_int64_t
      integer(c_int64_t) :: bytes
    end function probe_wmma_size
    function probe_wmma_offset(field) result(offset) &
        bind(C, name="tcgemm_probe_wmma_config_offset")
      import :: c_int32_t, c_int64_t
      integer(c_int32_t), value :: field
      integer(c_int64_t) :: offset
    end function probe_wmma_offset
  end interface

  type(tcgemm_config), target :: config
  type(tcgemm_device_info), target :: info
  type(tcgemm_wmma_config), target :: wmma
  integer(c_int64_t) :: offsets(8)
  integer :: i

  call expect(c_sizeof(config) == probe_config_size(), 'sizeof(tcgemm_config)')
  offsets = [offset_of(c_loc(config%family)), offset_of(c_loc(config%tile_m)), &
             offset_of(c_loc(config%tile_n)), offset_of(c_loc(config%tile_k)), &
             offset_of(c_loc(config%pad_a)), offset_of(c_loc(config%pad_b)), &
             offset_of(c_loc(config%stages)), offset_of(c_loc(config%k_splits))]
  offsets = offsets - offset_of(c_loc(config))
  do i = 1, size(offsets)
    call expect(offsets(i) == probe_config_offset(int(i - 1, c_int32_t)), &
                'tcgemm_config member ' // char(ichar('0') + i) // ' offset')
  end do

  call expect(c_sizeof(info) == probe_info_size(), 'sizeof(tcgemm_device_info)')
  offsets = [offset_of(c_loc(info%name)), offset_of(c_loc(info%device)), &
             offset_of(c_loc(info%cc_major)), offset_of(c_loc(info%cc_minor)), &
             offset_of(c_loc(info%sm_count)), &
             offset_of(c_loc(info%shared_memory_per_block_optin)), &
             offset_of(c_loc(info%shared_memory_per_sm)), offset_of(c_loc(info%global_memory))]
  offsets = offsets - offset_of(c_loc(info))
  do i = 1, size(offsets)
    call expect(offsets(i) == probe_info_offset(int(i - 1, c_int32_t)), &
                'tcgemm_device_info member ' // char(ichar('0') + i) // ' offset')
  end do

  call expect(c_sizeof(wmma) == probe_wmma_size(), 'sizeof(tcgemm_wmma_config)')
  offsets = [offset_of(c_loc(wmma%shape)), offset_of(c_loc(wmma%tile)), &
             offset_of(c_loc(wmma%tile_k)), offset_of(c_loc(wmma%pad_a)), &
             offset_of(c_loc(wmma%pad_b)), offset_of(c_loc(wmma%stages)), &
             offset_of(c_loc(wmma%tile_n)), offset_of(c_loc(wmma%reserved))]
  offsets = offsets - offset_of(c_loc(wmma))
  do i = 1, size(offsets)
    call expect(offsets(i) == probe_wmma_offset(int(i - 1, c_int32_t)), &
                'tcgemm_wmma_config member ' // char(ichar('0') + i) // ' offset')
  end do
  call finish_tests()

contains

  !> An address as an integer (c_ptr is opaque; its bits are the address on every target we build).
  integer(c_int64_t) function offset_of(p)
    type(c_ptr), intent(in) :: p
    offset_of = int(transfer(p, 0_c_intptr_t), c_int64_t)
  end function offset_of
end program test_layout_cpu
