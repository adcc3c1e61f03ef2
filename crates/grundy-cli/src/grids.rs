//! The text formats of the splitting game's grids: the shared parsers of
//! [`grundy_report::parse::split`] (the matrix one is also the web
//! server's).

pub use grundy_report::parse::split::{
    map_candidates, parse_cells, parse_map, parse_matrix, parse_matrix_rows, ParsedGrid,
};
