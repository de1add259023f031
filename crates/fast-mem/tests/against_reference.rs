//! Each function against the plain byte-by-byte meaning of its C namesake, for every length up to
//! 300 (every branch of the short and block paths, and each loop's last block landing on every
//! offset) at every alignment of both pointers in a 16-byte block, and for `memmove` at every
//! overlap in both directions. Built for a musl target, the test binary itself runs on these
//! functions: std's copies and comparisons call them too.

use kafkalint_fast_mem::{compare, copy, copy_overlapping, differ, fill};

const LENGTHS: std::ops::RangeInclusive<usize> = 0..=300;

/// Byte by byte: on musl, `==` on slices would call the `bcmp` under test.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Bytes that differ from position to position and from one call to the next.
fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

#[test]
fn copy_is_memcpy() {
    for len in LENGTHS {
        for src_offset in 0..16 {
            for dst_offset in 0..16 {
                let src = pattern(len + src_offset, 7);
                let mut dst = vec![0xAA; len + dst_offset + 16];
                unsafe {
                    copy(
                        dst.as_mut_ptr().add(dst_offset),
                        src.as_ptr().add(src_offset),
                        len,
                    )
                };
                assert!(
                    same(&dst[dst_offset..dst_offset + len], &src[src_offset..]),
                    "len {len}"
                );
                // Nothing outside the destination is touched.
                assert!(dst[..dst_offset].iter().all(|&b| b == 0xAA), "len {len}");
                assert!(
                    dst[dst_offset + len..].iter().all(|&b| b == 0xAA),
                    "len {len}"
                );
            }
        }
    }
}

#[test]
fn copy_overlapping_is_memmove() {
    for len in LENGTHS {
        for shift in -70isize..=70 {
            let original = pattern(len + 150, 3);
            let src_at = 75usize;
            let dst_at = (src_at as isize + shift) as usize;
            let mut buffer = original.clone();
            // Byte by byte through a copy of the source (`copy_within` is `memmove`).
            let mut moved = Vec::new();
            for &byte in &original[src_at..src_at + len] {
                moved.push(byte);
            }
            let mut expected = original.clone();
            for (i, byte) in moved.into_iter().enumerate() {
                expected[dst_at + i] = byte;
            }
            unsafe {
                let base = buffer.as_mut_ptr();
                copy_overlapping(base.add(dst_at), base.add(src_at), len);
            }
            assert!(same(&buffer, &expected), "len {len}, shift {shift}");
        }
    }
}

#[test]
fn fill_is_memset() {
    for len in LENGTHS {
        for offset in 0..16 {
            for byte in [0u8, 0x5A, 0xFF] {
                let mut dst = vec![0x11; len + offset + 16];
                unsafe { fill(dst.as_mut_ptr().add(offset), byte, len) };
                assert!(
                    dst[offset..offset + len].iter().all(|&b| b == byte),
                    "len {len}"
                );
                assert!(dst[..offset].iter().all(|&b| b == 0x11), "len {len}");
                assert!(dst[offset + len..].iter().all(|&b| b == 0x11), "len {len}");
            }
        }
    }
}

/// The sign C's `memcmp` must give: of the first differing byte, compared unsigned.
fn reference_order(a: &[u8], b: &[u8]) -> i32 {
    match a.iter().zip(b).find(|(x, y)| x != y) {
        Some((x, y)) if x < y => -1,
        Some(_) => 1,
        None => 0,
    }
}

#[test]
fn compare_and_differ_are_memcmp_and_bcmp() {
    for len in LENGTHS {
        let a = pattern(len + 15, 9);
        for a_offset in [0, 1, 7, 8, 15] {
            let a = &a[a_offset..a_offset + len];
            // Equal, and then one byte changed at every position, up and down (a byte above
            // 0x7F too, where a signed comparison would go wrong).
            let mut cases = vec![a.to_vec()];
            for at in 0..len {
                for new in [a[at].wrapping_add(1), a[at].wrapping_sub(1), a[at] ^ 0x80] {
                    let mut b = a.to_vec();
                    b[at] = new;
                    cases.push(b);
                }
            }
            // Two differences: the first decides.
            if len >= 2 {
                let mut b = a.to_vec();
                b[0] = b[0].wrapping_add(1);
                b[len - 1] = b[len - 1].wrapping_sub(1);
                cases.push(b);
            }
            for b in cases {
                for b_offset in [0, 3, 8] {
                    let mut shifted = vec![0; b_offset];
                    shifted.extend_from_slice(&b);
                    let b = &shifted[b_offset..];
                    let order = unsafe { compare(a.as_ptr(), b.as_ptr(), len) };
                    assert_eq!(
                        order.signum(),
                        reference_order(a, b),
                        "len {len}: {a:?} {b:?}"
                    );
                    let differs = unsafe { differ(a.as_ptr(), b.as_ptr(), len) };
                    assert_eq!(
                        differs != 0,
                        reference_order(a, b) != 0,
                        "len {len}: {a:?} {b:?}"
                    );
                }
            }
        }
    }
}
