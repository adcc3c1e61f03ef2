//! `pawns::{parse_blocked, parse_cell, parse_region}`: errors are located;
//! accepted cells are distinct, listed at offsets where a digit is written,
//! and print back to the same cells; `X,Y` and `X0,Y0,X1,Y1` likewise.
#![no_main]

use std::fmt::Write;

use grundy_fuzz::check_error;
use grundy_report::parse::pawn::{parse_blocked, parse_cell, parse_region};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    match parse_blocked(input) {
        Err(err) => check_error(input, &err),
        Ok(parsed) => {
            assert_eq!(parsed.cells.len(), parsed.offsets.len());
            assert_eq!(
                parsed.blocked.len(),
                parsed.cells.len(),
                "cells are distinct"
            );
            let mut text = String::new();
            for (&cell, &offset) in parsed.cells.iter().zip(&parsed.offsets) {
                assert!(input[offset].is_ascii_digit(), "cell {cell} at a non-digit");
                assert!(parsed.blocked.contains(cell));
                writeln!(text, "{} {}", cell.x(), cell.y()).expect("a String takes writes");
            }
            let again = parse_blocked(text.as_bytes()).expect("printed cells parse");
            assert_eq!(again.cells, parsed.cells, "round trip");
        }
    }
    // The command-line forms take a &str (clap hands over UTF-8).
    if let Ok(text) = std::str::from_utf8(input) {
        if let Ok(cell) = parse_cell(text) {
            assert_eq!(parse_cell(&format!("{},{}", cell.x(), cell.y())), Ok(cell));
        }
        if let Ok((low, high)) = parse_region(text) {
            assert!(
                low.x() <= high.x() && low.y() <= high.y(),
                "empty region accepted"
            );
            let again = format!("{},{},{},{}", low.x(), low.y(), high.x(), high.y());
            assert_eq!(parse_region(&again), Ok((low, high)));
        }
    }
});
