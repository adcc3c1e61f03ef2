//! The text format of rectangle-clearing boards: the shared parser of
//! [`grundy_report::parse::clear`] (the same one the web server uses).

pub use grundy_report::parse::clear::{parse_board_rows, parse_boards, ParsedBoard};
