//! `worker-spawn-oracle`: the batch protocol on stdin/stdout, and the IPC
//! process modes.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::OsString;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use worker_spawn_oracle::batch;
use worker_spawn_oracle::ipc::process::{parse_timeout, run_child, run_parent, ParentOptions};

/// Every case allocates and frees many small strings and objects; mimalloc
/// does that markedly faster than the system allocator. Large blocks
/// (a string of many megabytes) are mapped straight from the kernel
/// instead: growing one moves its pages (`mremap`) rather than copying
/// them into a block twice the size, and freeing one returns its memory at
/// once. mimalloc copies on growth and keeps freed memory a while, which
/// made a 1 GiB string peak at over 4 GB.
#[global_allocator]
static ALLOCATOR: LargeMapped = LargeMapped;

struct LargeMapped;

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

/// Reads a JSON array of cases on stdin and prints the array of their
/// results exactly as the reference implementation's JSON.stringify would.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    mode: Option<Mode>,
}

#[derive(Subcommand)]
enum Mode {
    /// Run the batch protocol (the default): cases on stdin, results on stdout.
    Batch,
    /// The worker half over this process's Node IPC channel (NODE_CHANNEL_FD).
    IpcChild {
        /// The thread id (required, unused).
        thread_id: String,
    },
    /// Spawn a child with a Node IPC channel and run the cross-implementation
    /// choreography against it.
    IpcParent {
        /// Bound on the whole run, in seconds.
        #[arg(long, default_value = "10", value_parser = parse_timeout)]
        timeout: Duration,
        /// The child's command line; a first argument ending in .mjs, .js
        /// or .cjs runs under node. Everything from here on is the child's.
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<OsString>,
    },
}

/// Runs before Rust's runtime, which would put /dev/null on a closed
/// stdout: a batch whose stdout was closed is refused rather than run
/// for nothing.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_STDOUT: extern "C" fn() = {
    extern "C" fn note() {
        batch::note_stdout_at_start();
    }
    note
};

fn main() -> ExitCode {
    let cli = Cli::parse();
    ExitCode::from(match cli.mode {
        None | Some(Mode::Batch) => batch::run_stdio(),
        Some(Mode::IpcChild { thread_id }) => run_child(&thread_id),
        Some(Mode::IpcParent { timeout, command }) => {
            run_parent(&ParentOptions { timeout, command })
        }
    })
}
