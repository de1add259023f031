//! `memcpy`, `memmove`, `memset`, `memcmp` and `bcmp` for kafkalint's static musl builds (the
//! Linux binaries and wheels that releases ship).
//!
//! musl's own are small and slow for the short, unaligned work Rust gives them: its x86_64
//! `memcpy` starts a `rep movsq` for every copy of 8 bytes or more and finishes byte by byte, and
//! its `memcmp` (which `bcmp`, Rust's string equality, calls) compares one byte at a time. A check
//! of 10,000 broker files spent a quarter of its cycles in the two (`perf record`), and the musl
//! build ran 1.4 times slower than a glibc one. These work as glibc's do, in plain Rust: a short
//! copy is two or four loads followed by as many stores (the two halves may overlap), a longer
//! one a loop of 32-byte blocks with its last block loaded first, a comparison 8 or 16 bytes at
//! a time.
//!
//! On musl targets the functions are exported under the C names, and the linker takes them before
//! the C library's archive. Elsewhere the crate only offers them by their Rust names, for tests.
//!
//! The crate is `no_builtins`: LLVM would otherwise recognise the copy loops as `memcpy` and call
//! the function from itself.

#![no_std]
#![no_builtins]

/// A 16-byte block: one unaligned vector load or store.
type Block = u128;

#[inline(always)]
unsafe fn load<T>(from: *const u8) -> T {
    unsafe { from.cast::<T>().read_unaligned() }
}

#[inline(always)]
unsafe fn store<T>(to: *mut u8, value: T) {
    unsafe { to.cast::<T>().write_unaligned(value) }
}

/// Copies `n` bytes (`size_of::<T>()` ≤ n ≤ twice that) as two `T`s, the first and the last,
/// which overlap when n is less than twice; both loads before the stores.
#[inline(always)]
unsafe fn copy_two<T>(dst: *mut u8, src: *const u8, n: usize) {
    let last = n - core::mem::size_of::<T>();
    unsafe {
        let (a, b): (T, T) = (load(src), load(src.add(last)));
        store(dst, a);
        store(dst.add(last), b);
    }
}

/// Copies `n` bytes from `src` to `dst` (n ≤ 64). Every load comes before any store, so the two
/// may overlap.
#[inline(always)]
unsafe fn copy_short(dst: *mut u8, src: *const u8, n: usize) {
    unsafe {
        if n >= 32 {
            let a: Block = load(src);
            let b: Block = load(src.add(16));
            let c: Block = load(src.add(n - 32));
            let d: Block = load(src.add(n - 16));
            store(dst, a);
            store(dst.add(16), b);
            store(dst.add(n - 32), c);
            store(dst.add(n - 16), d);
        } else if n >= 16 {
            copy_two::<Block>(dst, src, n);
        } else if n >= 8 {
            copy_two::<u64>(dst, src, n);
        } else if n >= 4 {
            copy_two::<u32>(dst, src, n);
        } else if n >= 2 {
            copy_two::<u16>(dst, src, n);
        } else if n == 1 {
            *dst = *src;
        }
    }
}

/// Copies `n` bytes (n > 64) from the first block to the last. Correct when `dst` lies before
/// `src` even if they overlap: a store only reaches source bytes already loaded. The last block
/// is loaded first, before the loop can overwrite it.
#[inline(always)]
unsafe fn copy_forward(dst: *mut u8, src: *const u8, n: usize) {
    unsafe {
        let last_a: Block = load(src.add(n - 32));
        let last_b: Block = load(src.add(n - 16));
        let mut at = 0;
        while at + 32 < n {
            let a: Block = load(src.add(at));
            let b: Block = load(src.add(at + 16));
            store(dst.add(at), a);
            store(dst.add(at + 16), b);
            at += 32;
        }
        store(dst.add(n - 32), last_a);
        store(dst.add(n - 16), last_b);
    }
}

/// As [`copy_forward`] from the last block to the first, for `dst` after an overlapping `src`.
#[inline(always)]
unsafe fn copy_backward(dst: *mut u8, src: *const u8, n: usize) {
    unsafe {
        let first_a: Block = load(src);
        let first_b: Block = load(src.add(16));
        let mut at = n;
        while at > 32 {
            at -= 32;
            let a: Block = load(src.add(at));
            let b: Block = load(src.add(at + 16));
            store(dst.add(at), a);
            store(dst.add(at + 16), b);
        }
        store(dst, first_a);
        store(dst.add(16), first_b);
    }
}

/// `memcpy`: copies `n` bytes from `src` to `dst`, which do not overlap.
///
/// # Safety
/// As C's `memcpy`: both valid for `n` bytes, not overlapping.
#[inline]
pub unsafe fn copy(dst: *mut u8, src: *const u8, n: usize) {
    unsafe {
        if n <= 64 {
            copy_short(dst, src, n);
        } else {
            copy_forward(dst, src, n);
        }
    }
}

/// `memmove`: copies `n` bytes from `src` to `dst`, which may overlap.
///
/// # Safety
/// As C's `memmove`: both valid for `n` bytes.
#[inline]
pub unsafe fn copy_overlapping(dst: *mut u8, src: *const u8, n: usize) {
    unsafe {
        if n <= 64 {
            copy_short(dst, src, n);
        } else if (dst as usize).wrapping_sub(src as usize) >= n {
            // `dst` before `src`, or apart from it.
            copy_forward(dst, src, n);
        } else {
            copy_backward(dst, src, n);
        }
    }
}

/// `memset`: sets `n` bytes at `dst` to `byte`.
///
/// # Safety
/// As C's `memset`: `dst` valid for `n` bytes.
#[inline]
pub unsafe fn fill(dst: *mut u8, byte: u8, n: usize) {
    let word = u64::from(byte) * 0x0101_0101_0101_0101;
    let block = Block::from(word) | (Block::from(word) << 64);
    unsafe {
        if n >= 32 {
            let mut at = 0;
            while at + 32 < n {
                store(dst.add(at), block);
                store(dst.add(at + 16), block);
                at += 32;
            }
            store(dst.add(n - 32), block);
            store(dst.add(n - 16), block);
        } else if n >= 16 {
            store(dst, block);
            store(dst.add(n - 16), block);
        } else if n >= 8 {
            store(dst, word);
            store(dst.add(n - 8), word);
        } else if n >= 4 {
            store(dst, word as u32);
            store(dst.add(n - 4), word as u32);
        } else if n >= 2 {
            store(dst, word as u16);
            store(dst.add(n - 2), word as u16);
        } else if n == 1 {
            *dst = byte;
        }
    }
}

/// `memcmp`: the sign of the first differing byte of `a` less that of `b` (as unsigned bytes),
/// 0 when the `n` bytes are equal.
///
/// # Safety
/// As C's `memcmp`: both valid for `n` bytes.
#[inline]
pub unsafe fn compare(a: *const u8, b: *const u8, n: usize) -> i32 {
    // Read as big-endian numbers, two words order as their bytes do.
    let order = |x: u64, y: u64| {
        if u64::from_be(x) < u64::from_be(y) {
            -1
        } else {
            1
        }
    };
    unsafe {
        if n >= 8 {
            let mut at = 0;
            while at + 8 < n {
                let (x, y): (u64, u64) = (load(a.add(at)), load(b.add(at)));
                if x != y {
                    return order(x, y);
                }
                at += 8;
            }
            // The last word may overlap bytes already found equal.
            let (x, y): (u64, u64) = (load(a.add(n - 8)), load(b.add(n - 8)));
            return if x == y { 0 } else { order(x, y) };
        }
        for at in 0..n {
            let (x, y) = (*a.add(at), *b.add(at));
            if x != y {
                return i32::from(x) - i32::from(y);
            }
        }
        0
    }
}

/// Whether `n` bytes (`size_of::<T>()` ≤ n ≤ twice that) differ, compared as two `T`s, the
/// first and the last.
#[inline(always)]
unsafe fn differ_two<T: PartialEq>(a: *const u8, b: *const u8, n: usize) -> bool {
    let last = n - core::mem::size_of::<T>();
    // Both compared, without a branch between them.
    unsafe { (load::<T>(a) != load::<T>(b)) | (load::<T>(a.add(last)) != load::<T>(b.add(last))) }
}

/// `bcmp`: 0 when the `n` bytes of `a` and `b` are equal, 1 otherwise.
///
/// # Safety
/// As C's `bcmp`: both valid for `n` bytes.
#[inline]
pub unsafe fn differ(a: *const u8, b: *const u8, n: usize) -> i32 {
    unsafe {
        let differs = if n >= 16 {
            let mut at = 0;
            let mut found = false;
            while at + 16 < n {
                if load::<Block>(a.add(at)) != load::<Block>(b.add(at)) {
                    found = true;
                    break;
                }
                at += 16;
            }
            found || load::<Block>(a.add(n - 16)) != load::<Block>(b.add(n - 16))
        } else if n >= 8 {
            differ_two::<u64>(a, b, n)
        } else if n >= 4 {
            differ_two::<u32>(a, b, n)
        } else if n >= 2 {
            differ_two::<u16>(a, b, n)
        } else {
            n == 1 && *a != *b
        };
        i32::from(differs)
    }
}

/// The C names, on musl only: elsewhere the C library's stay.
#[cfg(target_env = "musl")]
mod exports {
    use core::ffi::c_int;

    #[unsafe(no_mangle)]
    unsafe extern "C" fn memcpy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        unsafe { super::copy(dst, src, n) };
        dst
    }

    #[unsafe(no_mangle)]
    unsafe extern "C" fn memmove(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        unsafe { super::copy_overlapping(dst, src, n) };
        dst
    }

    #[unsafe(no_mangle)]
    unsafe extern "C" fn memset(dst: *mut u8, byte: c_int, n: usize) -> *mut u8 {
        unsafe { super::fill(dst, byte as u8, n) };
        dst
    }

    #[unsafe(no_mangle)]
    unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> c_int {
        unsafe { super::compare(a, b, n) }
    }

    #[unsafe(no_mangle)]
    unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> c_int {
        unsafe { super::differ(a, b, n) }
    }
}
