//! Scans of a text's bytes written so that the compiler turns them into vector instructions:
//! blocks of a fixed size, each judged whole without an early exit inside, and bytes rather
//! than booleans (an `|` of booleans is compiled as branches). The texts scanned are short
//! (values, names, messages), where a `memchr` call costs more to set up than to search.

/// Whether some byte of `bytes` is one `hit` gives 1 for (`hit` gives 0 or 1).
pub fn any_byte(bytes: &[u8], hit: impl Fn(u8) -> u8 + Copy) -> bool {
    let hits = |bytes: &[u8]| bytes.iter().fold(0u8, |found, &b| found | hit(b));
    const BLOCK: usize = 16;
    let mut blocks = bytes.chunks_exact(BLOCK);
    for block in &mut blocks {
        let block: &[u8; BLOCK] = block.try_into().expect("chunks_exact gives whole blocks");
        if hits(block) != 0 {
            return true;
        }
    }
    hits(blocks.remainder()) != 0
}

/// How many bytes of `bytes` are `byte`.
pub fn count_byte(bytes: &[u8], byte: u8) -> usize {
    const BLOCK: usize = 64;
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut count = 0;
    for block in &mut blocks {
        count += usize::from(block.iter().map(|&b| u8::from(b == byte)).sum::<u8>());
    }
    count + blocks.remainder().iter().filter(|&&b| b == byte).count()
}

#[cfg(test)]
mod tests {
    use super::{any_byte, count_byte};

    #[test]
    fn scans_agree_with_a_byte_at_a_time_at_every_place_and_length() {
        let hit = |b: u8| u8::from(b == b'$') | u8::from(b >= 0x80);
        for len in 0..150 {
            let plain = vec![b'a'; len];
            assert!(!any_byte(&plain, hit));
            assert_eq!(count_byte(&plain, b'\n'), 0);
            for at in 0..len {
                for byte in [b'$', b'\n', 0x80, 0xff, b'#'] {
                    let mut bytes = plain.clone();
                    bytes[at] = byte;
                    bytes[len - 1 - at] = byte;
                    let hits = bytes.iter().any(|b| hit(*b) == 1);
                    assert_eq!(any_byte(&bytes, hit), hits, "{bytes:?}");
                    let count = bytes.iter().filter(|b| **b == byte).count();
                    assert_eq!(count_byte(&bytes, byte), count, "{bytes:?}");
                }
            }
        }
        // Blocks full of the byte: a block's count reaches 64 without overflowing.
        assert_eq!(count_byte(&[b'\n'; 300], b'\n'), 300);
    }
}
