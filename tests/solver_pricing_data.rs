//! The pricing example's inputs (`examples/pricing/data.rs`, also
//! `workloads::bond_data`): the shipped CSV files parse; a malformed row, a
//! non-number or a bad value is reported with its file, line and column and
//! skipped while the rest are read; a missing column is an error for the
//! file.

#![allow(dead_code)]

#[path = "../examples/pricing/data.rs"]
mod data;
#[path = "../examples/pricing/synthetic.rs"]
mod synthetic;

use std::path::Path;

use data::{parse_bonds, parse_curve, read_bonds, read_curve};
use synthetic::synthetic_terms;

fn shipped(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/data")
        .join(name)
}

#[test]
fn the_shipped_bonds_parse() {
    let bonds = read_bonds(&shipped("bonds.csv")).unwrap();
    assert!(bonds.skipped.is_empty(), "{:?}", bonds.skipped);
    assert!(bonds.value.len() >= 10, "{}", bonds.value.len());
    let first = &bonds.value[0];
    assert_eq!(first.id, "AGY-2Y");
    assert_eq!(first.coupon_rate, 0.0425);
    assert_eq!((first.maturity, first.frequency), (2.0, 2));
    for b in &bonds.value {
        assert!(b.price > 40.0 && b.price < 120.0, "{b:?}");
        assert!(b.coupon_rate < 0.1 && b.maturity <= 30.0, "{b:?}");
    }
}

#[test]
fn the_shipped_curve_parses() {
    let curve = read_curve(&shipped("curve.csv")).unwrap();
    assert!(curve.skipped.is_empty(), "{:?}", curve.skipped);
    assert_eq!(
        curve.value.tenors,
        [0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0]
    );
    assert_eq!(curve.value.rates.len(), 10);
    assert!(curve.value.rates.iter().all(|r| *r > 0.0 && *r < 0.1));
    assert_eq!(curve.value.rates[0], 0.043);
}

#[test]
fn the_shipped_malformed_file_reports_each_bad_row_by_line() {
    let path = shipped("bonds_malformed.csv");
    let bonds = read_bonds(&path).unwrap();
    let ids: Vec<&str> = bonds.value.iter().map(|b| b.id.as_str()).collect();
    assert_eq!(ids, ["CORP-A-5Y", "CORP-A-10Y", "LONG-30Y"]);
    let lines: Vec<u64> = bonds.skipped.iter().map(|e| e.line).collect();
    assert_eq!(lines, [5, 6, 7, 9, 10]);
    let text: Vec<String> = bonds.skipped.iter().map(|e| e.to_string()).collect();
    let file = path.display().to_string();
    assert_eq!(
        text[0],
        format!("{file}:5: price (column 5) must be a number, found `n/a`")
    );
    assert!(
        text[1].starts_with(&format!("{file}:6: expected 5 fields")),
        "{}",
        text[1]
    );
    assert!(
        text[2].contains(":7: frequency must be one of"),
        "{}",
        text[2]
    );
    assert!(
        text[3].contains(":9: duplicate id `CORP-A-5Y` (first on line 4)"),
        "{}",
        text[3]
    );
    assert!(
        text[4].contains(":10: price must be a finite number"),
        "{}",
        text[4]
    );
}

#[test]
fn line_numbers_count_blank_and_comment_lines() {
    let text = "\n# a comment\nid,coupon_pct,maturity_years,frequency,price\n\nA,5,5,2,100\n\
                # another\nB,5,five,2,100\nC,5,5,2,100\n";
    let bonds = parse_bonds(text, "mem.csv").unwrap();
    assert_eq!(bonds.value.len(), 2);
    assert_eq!(bonds.skipped.len(), 1);
    assert_eq!(
        bonds.skipped[0].to_string(),
        "mem.csv:7: maturity_years (column 3) must be a number, found `five`"
    );
}

#[test]
fn line_numbers_hold_with_crlf_and_comments_between_rows() {
    let text = "# bonds\r\nid,coupon_pct,maturity_years,frequency,price\r\nA,5,5,2,100\r\n\
                # a comment\r\n\r\n# another\r\nB,5,5,2,x\r\nC,5,5,2\r\n";
    let bonds = parse_bonds(text, "crlf.csv").unwrap();
    let lines: Vec<u64> = bonds.skipped.iter().map(|e| e.line).collect();
    assert_eq!(lines, [7, 8], "{:?}", bonds.skipped);
    let e = parse_curve("# a\r\n\r\n# b\r\ntenor\r\n", "c.csv").unwrap_err();
    assert!(e.message.starts_with("line 4: missing column"), "{e}");
}

#[test]
fn crlf_and_spaces_are_accepted() {
    let text =
        "ID, Coupon_Pct, maturity_years, frequency, price\r\n X1 , 4.5 , 10 , 2 , 98.25 \r\n";
    let bonds = parse_bonds(text, "crlf.csv").unwrap();
    assert!(bonds.skipped.is_empty(), "{:?}", bonds.skipped);
    assert_eq!(bonds.value[0].id, "X1");
    assert_eq!(bonds.value[0].price, 98.25);
}

#[test]
fn every_field_is_checked() {
    let header = "id,coupon_pct,maturity_years,frequency,price\n";
    let cases = [
        (",5,5,2,100", "the id is empty"),
        ("A,-1,5,2,100", "coupon_pct must be in [0, 100)"),
        ("A,5,0,2,100", "maturity_years must be in (0, 100]"),
        ("A,5,5,0,100", "frequency must be one of"),
        (
            "A,5,5,2.5,100",
            "frequency (column 4) must be a whole number, found `2.5`",
        ),
        (
            "A,5,5,-2,100",
            "frequency (column 4) must be a whole number, found `-2`",
        ),
        (
            "A,,5,2,100",
            "coupon_pct (column 2) must be a number, found ``",
        ),
        ("A,5,5,2,-3", "price must be positive"),
        ("A,5,5,2,inf", "price must be a finite number"),
        ("A,5,5,2,100,extra", "expected 5 fields"),
        ("A,5,5,2", "expected 5 fields"),
    ];
    for (row, message) in cases {
        let parsed = parse_bonds(&format!("{header}{row}\n"), "x.csv").unwrap();
        assert!(parsed.value.is_empty(), "{row}");
        assert_eq!(parsed.skipped.len(), 1, "{row}");
        assert_eq!(parsed.skipped[0].line, 2, "{row}");
        assert!(
            parsed.skipped[0].message.contains(message),
            "{row}: {}",
            parsed.skipped[0].message
        );
    }
}

#[test]
fn a_missing_column_or_empty_file_is_a_file_error() {
    let e = parse_bonds("id,coupon,maturity_years,frequency\nA,5,5,2\n", "b.csv").unwrap_err();
    assert_eq!(
        e.to_string(),
        "b.csv: line 1: missing columns `coupon_pct`, `price`; expected the header \
         `id,coupon_pct,maturity_years,frequency,price`, found `id,coupon,maturity_years,frequency`"
    );
    let e = parse_curve("# rates\ntenor_years\n1\n2\n", "c.csv").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("c.csv: line 2: missing column `zero_rate_pct`;"),
        "{e}"
    );
    let e = parse_bonds(
        "id,coupon_pct,maturity_years,frequency,price,price\n",
        "b.csv",
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("column `price` appears twice"),
        "{e}"
    );
    let e = parse_bonds("# only a comment\n", "b.csv").unwrap_err();
    assert!(e.to_string().contains("empty file"), "{e}");
    let e = parse_bonds("", "b.csv").unwrap_err();
    assert!(e.to_string().contains("empty file"), "{e}");
    let e = read_bonds(Path::new("/nonexistent/bonds.csv")).unwrap_err();
    assert!(e.to_string().contains("cannot read"), "{e}");
}

#[test]
fn columns_are_found_by_name_in_any_order_and_extra_ones_are_ignored() {
    let text = "price,frequency,notes,maturity_years,coupon_pct,id\n98.5,2,on the run,10,4.5,X1\n";
    let bonds = parse_bonds(text, "any-order.csv").unwrap();
    assert!(bonds.skipped.is_empty(), "{:?}", bonds.skipped);
    let b = &bonds.value[0];
    assert_eq!(
        (
            b.id.as_str(),
            b.coupon_rate,
            b.maturity,
            b.frequency,
            b.price
        ),
        ("X1", 0.045, 10.0, 2, 98.5)
    );
    // A bad field is named by its header and its position in this file.
    let text = "price,id,coupon_pct,maturity_years,frequency\nabc,X1,4.5,10,2\n";
    let bonds = parse_bonds(text, "any-order.csv").unwrap();
    assert_eq!(
        bonds.skipped[0].to_string(),
        "any-order.csv:2: price (column 1) must be a number, found `abc`"
    );
}

#[test]
fn curve_rows_are_checked_and_a_short_curve_is_an_error() {
    let text = "tenor_years,zero_rate_pct\n1,4\n0.5,4.1\n2,x\n3,4.2\n3,4.3\n5\n";
    let curve = parse_curve(text, "c.csv").unwrap();
    assert_eq!(curve.value.tenors, [1.0, 3.0]);
    assert_eq!(curve.value.rates, [0.04, 0.042]);
    let lines: Vec<u64> = curve.skipped.iter().map(|e| e.line).collect();
    assert_eq!(lines, [3, 4, 6, 7]);
    assert!(curve.skipped[0].message.contains("tenors must increase"));
    assert_eq!(
        curve.skipped[1].message,
        "zero_rate_pct (column 2) must be a number, found `x`"
    );
    let e = parse_curve("tenor_years,zero_rate_pct\n1,4\n2,bad\n", "c.csv").unwrap_err();
    assert!(e.to_string().contains("at least two key tenors"), "{e}");
}

#[test]
fn the_synthetic_portfolio_is_deterministic_and_plausible() {
    let a = synthetic_terms(1000, 7);
    assert_eq!(a, synthetic_terms(1000, 7));
    assert_ne!(a, synthetic_terms(1000, 8));
    for t in &a {
        assert!((0.0..0.08).contains(&t.coupon_rate), "{t:?}");
        assert!(t.maturity >= 0.25 && t.maturity <= 30.0, "{t:?}");
        assert!([1, 2, 4, 12].contains(&t.frequency), "{t:?}");
        assert!(t.z_spread > 0.0 && t.z_spread < 0.05, "{t:?}");
    }
}
