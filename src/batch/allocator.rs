//! The oracle binary's allocator.
//!
//! Every case allocates and frees many small strings and objects; mimalloc
//! does that markedly faster than the system allocator. Large blocks
//! (a string of many megabytes) are mapped straight from the kernel
//! instead: growing one moves its pages (`mremap`) rather than copying
//! them into a block twice the size, and freeing one returns its memory at
//! once. mimalloc copies on growth and keeps freed memory a while, which
//! made a 1 GiB string peak at over 4 GB.

use std::alloc::{GlobalAlloc, Layout};

/// The allocator: declare it with `#[global_allocator]` in a binary.
pub struct LargeMapped;

/// Blocks of this size or more are mapped.
const LARGE: usize = 4 * 1024 * 1024;

/// Whether a block is mapped: large, and aligned no more than a page.
fn mapped(size: usize, align: usize) -> bool {
    size >= LARGE && align <= 4096
}

// SAFETY: every block is freed or resized by the allocator that made it:
// the test depends only on the size and alignment, which the caller gives
// back unchanged; mapped blocks are page-aligned, which satisfies every
// alignment up to a page.
unsafe impl GlobalAlloc for LargeMapped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !mapped(layout.size(), layout.align()) {
            return mimalloc::MiMalloc.alloc(layout);
        }
        let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
        let protection = libc::PROT_READ | libc::PROT_WRITE;
        let block = libc::mmap(
            std::ptr::null_mut(),
            layout.size(),
            protection,
            flags,
            -1,
            0,
        );
        if block == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        // Huge pages, where the system allows them: a fault per 2 MiB,
        // not per 4 KiB.
        libc::madvise(block, layout.size(), libc::MADV_HUGEPAGE);
        block.cast()
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if mapped(layout.size(), layout.align()) {
            // Fresh mappings are zeroed.
            self.alloc(layout)
        } else {
            mimalloc::MiMalloc.alloc_zeroed(layout)
        }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if mapped(layout.size(), layout.align()) {
            libc::munmap(block.cast(), layout.size());
        } else {
            mimalloc::MiMalloc.dealloc(block, layout);
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let was_mapped = mapped(layout.size(), layout.align());
        let is_mapped = mapped(new_size, layout.align());
        if was_mapped && is_mapped {
            let moved = libc::mremap(block.cast(), layout.size(), new_size, libc::MREMAP_MAYMOVE);
            if moved == libc::MAP_FAILED {
                return std::ptr::null_mut();
            }
            libc::madvise(moved, new_size, libc::MADV_HUGEPAGE);
            return moved.cast();
        }
        if !was_mapped && !is_mapped {
            return mimalloc::MiMalloc.realloc(block, layout, new_size);
        }
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        let moved = self.alloc(new_layout);
        if !moved.is_null() {
            std::ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
            self.dealloc(block, layout);
        }
        moved
    }
}
