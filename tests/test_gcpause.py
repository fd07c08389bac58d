"""The collector's pause around pipeline stages: off inside, on again after the outermost one,
with what was built frozen (not walked by later collections), and nothing lost."""

import gc

from llumc.gcpause import cyclic_gc_paused


def test_pause_disables_then_freezes_and_enables_once_outermost_ends():
    gc.unfreeze()
    assert gc.isenabled()
    with cyclic_gc_paused():
        assert not gc.isenabled()
        built = [[i] for i in range(1000)]
        with cyclic_gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause leaves it off
        frozen_before = gc.get_freeze_count()
    assert gc.isenabled()
    assert gc.get_freeze_count() >= frozen_before + len(built)
    assert built[999] == [999]
    gc.unfreeze()


def test_freed_by_reference_counting_after_the_pause():
    import weakref

    class Node:
        pass

    with cyclic_gc_paused():
        node = Node()
    ref = weakref.ref(node)
    del node
    assert ref() is None
    gc.unfreeze()
