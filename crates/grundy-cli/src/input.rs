//! Reading text input: the typed parse errors with line and column, and the
//! byte scanner of the judge formats. They live with the shared text parsers
//! in [`grundy_report::parse`] (one parser per format, for the command line,
//! the web server and Python); re-exported here for the judge modules.

pub use grundy_report::parse::{
    char_at, count, line_col, shown_number, strip_bom, without_bom, Found, ParseError,
    ParseErrorKind, Scanner, BOM, SHOWN_DIGITS,
};
