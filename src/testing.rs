//! What the unit tests share.

/// Every text made of up to `most` of `pieces` in a row (the empty text first, then those of
/// one piece, of two, ...), leaving out those longer than `longest` bytes and what they would
/// grow into: the inputs, every one of them, on which a test holds a fast path to the plain
/// definition it replaced.
pub fn texts_of(pieces: &[&[u8]], most: usize, longest: usize) -> Vec<Vec<u8>> {
    let mut every = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..most {
        last = last
            .iter()
            .flat_map(|text| pieces.iter().map(move |piece| [&text[..], piece].concat()))
            .filter(|text| text.len() <= longest)
            .collect();
        every.extend(last.iter().cloned());
    }
    every
}

/// [`texts_of`] pieces of text.
pub fn strings_of(pieces: &[&str], most: usize, longest: usize) -> Vec<String> {
    let pieces: Vec<&[u8]> = pieces.iter().map(|piece| piece.as_bytes()).collect();
    texts_of(&pieces, most, longest)
        .into_iter()
        .map(|text| String::from_utf8(text).expect("pieces of text make text"))
        .collect()
}
