//! JSON for mu2's own files (corpus metadata, reports, crash records, the
//! listing), through serde.
//!
//! Why not `serde_json`: every crate in a build's graph adds its trait impls
//! to type inference in every other crate of the build, and `serde_json`
//! has `impl PartialEq<Value> for u8` (and for every other primitive type).
//! With it behind `mu2`, ordinary user code such as
//! `assert_eq!(bytes, Vec::new())` or `assert_eq!(10, v.iter().sum())`
//! stops compiling ("type annotations needed"), far from anything mu2 does.
//! A dependency must not break code it never touches, so the few hundred
//! lines below read and write the subset of JSON that serde's data model
//! needs here: objects, arrays, strings, numbers, booleans and null, with
//! enums as strings (unit variants) or `{"Variant": value}`.
//!
//! The output matches `serde_json`'s pretty printer (two-space indentation,
//! `"key": value`), so files written by earlier versions diff cleanly; the
//! tests check both directions against `serde_json` itself.

use std::fmt::{self, Display, Write as _};

use serde::de::value::{MapDeserializer, SeqDeserializer, StringDeserializer};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};

/// A JSON file that could not be read or a value that could not be written,
/// with the reason (and, for reading, the line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Error {
        Error(msg.to_string())
    }
}

impl de::Error for Error {
    fn custom<T: Display>(msg: T) -> Error {
        Error(msg.to_string())
    }
}

/// `value` as pretty-printed JSON (no trailing newline).
pub(crate) fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    write(value, true)
}

/// `value` as JSON on one line.
pub(crate) fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    write(value, false)
}

fn write<T: Serialize + ?Sized>(value: &T, pretty: bool) -> Result<String, Error> {
    let mut w = Writer {
        out: String::new(),
        pretty,
        depth: 0,
    };
    value.serialize(&mut w)?;
    Ok(w.out)
}

/// Reads a `T` from JSON text.
pub(crate) fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    let mut p = Parser {
        text: text.as_bytes(),
        pos: 0,
        depth: 0,
    };
    let value = p.value()?;
    p.whitespace();
    if p.pos < p.text.len() {
        return Err(p.error("trailing characters after the value"));
    }
    T::deserialize(value)
}

/// Reads a `T` from JSON bytes (UTF-8).
pub(crate) fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    let text = std::str::from_utf8(bytes).map_err(|e| Error(format!("not UTF-8: {e}")))?;
    from_str(text)
}

// ----- writing -------------------------------------------------------------

struct Writer {
    out: String,
    pretty: bool,
    depth: usize,
}

impl Writer {
    fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                '\u{8}' => self.out.push_str("\\b"),
                '\u{c}' => self.out.push_str("\\f"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(self.out, "\\u{:04x}", c as u32);
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    fn newline(&mut self) {
        if self.pretty {
            self.out.push('\n');
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
        }
    }

    fn open(&mut self, bracket: char, close: char) -> Compound<'_> {
        self.out.push(bracket);
        self.depth += 1;
        Compound {
            w: self,
            first: true,
            close,
            variant: false,
        }
    }

    /// `{"variant": ` before a variant's content; `Compound::variant`
    /// closes the brace.
    fn variant(&mut self, variant: &str) {
        self.out.push('{');
        self.depth += 1;
        self.newline();
        self.string(variant);
        self.out.push_str(if self.pretty { ": " } else { ":" });
    }

    fn close_variant(&mut self) {
        self.depth -= 1;
        self.newline();
        self.out.push('}');
    }
}

/// An array or object being written.
struct Compound<'a> {
    w: &'a mut Writer,
    first: bool,
    close: char,
    /// Inside `{"variant": ...}`, closed after this.
    variant: bool,
}

impl Compound<'_> {
    fn element(&mut self) {
        if !self.first {
            self.w.out.push(',');
        }
        self.first = false;
        self.w.newline();
    }

    fn key(&mut self, key: &str) {
        self.element();
        self.w.string(key);
        self.w.out.push_str(if self.w.pretty { ": " } else { ":" });
    }

    fn end(self) -> Result<(), Error> {
        self.w.depth -= 1;
        if !self.first {
            self.w.newline();
        }
        self.w.out.push(self.close);
        if self.variant {
            self.w.close_variant();
        }
        Ok(())
    }
}

macro_rules! display_numbers {
    ($($method:ident: $ty:ty),*) => {$(
        fn $method(self, v: $ty) -> Result<(), Error> {
            let _ = write!(self.out, "{v}");
            Ok(())
        }
    )*};
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    display_numbers!(
        serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128
    );

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if v.is_finite() {
            let _ = write!(self.out, "{v:?}");
        } else {
            self.out.push_str("null");
        }
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if v.is_finite() {
            // `Debug` is the shortest text that reads back as the same
            // number, with `.0` on whole numbers, as serde_json writes.
            let _ = write!(self.out, "{v:?}");
        } else {
            // JSON has no NaN or infinity; serde_json writes null too.
            self.out.push_str("null");
        }
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.out.push_str("null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.variant(variant);
        value.serialize(&mut *self)?;
        self.close_variant();
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.open('[', ']'))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.variant(variant);
        let mut c = self.open('[', ']');
        c.variant = true;
        Ok(c)
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.open('{', '}'))
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a>, Error> {
        Ok(self.open('{', '}'))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.variant(variant);
        let mut c = self.open('{', '}');
        c.variant = true;
        Ok(c)
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element();
        value.serialize(&mut *self.w)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        // JSON keys are strings: write the key alone, then require it to
        // have come out as one.
        let key = write(key, false)?;
        if !key.starts_with('"') {
            return Err(Error(format!(
                "a JSON object key must be a string, not {key}"
            )));
        }
        self.element();
        self.w.out.push_str(&key);
        self.w.out.push_str(if self.w.pretty { ": " } else { ":" });
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.w)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.key(key);
        value.serialize(&mut *self.w)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

// ----- reading -------------------------------------------------------------

/// A parsed JSON value, handed to serde's derived `Deserialize` impls.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Null,
    Bool(bool),
    UInt(u64),
    Int(i64),
    Float(f64),
    Str(String),
    Array(Vec<Value>),
    /// Members in file order (a repeated key is passed on; serde's derive
    /// reports it as a duplicate field).
    Object(Vec<(String, Value)>),
}

/// Nesting deeper than this is refused instead of overflowing the stack
/// on a corrupt or hostile file.
const MAX_DEPTH: usize = 128;

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> Error {
        let before = &self.text[..self.pos.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        Error(format!("{what} at line {line} column {column}"))
    }

    fn whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.whitespace();
        self.text.get(self.pos).copied()
    }

    fn expect(&mut self, byte: u8) -> Result<(), Error> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected `{}`", byte as char)))
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, Error> {
        if self.text[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn value(&mut self) -> Result<Value, Error> {
        match self.peek() {
            None => Err(self.error("unexpected end of the text")),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'"') => Ok(Value::Str(self.string()?)),
            Some(b'[') => self.nested(|p| {
                let mut items = Vec::new();
                if p.peek() == Some(b']') {
                    p.pos += 1;
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(p.value()?);
                    match p.peek() {
                        Some(b',') => p.pos += 1,
                        Some(b']') => {
                            p.pos += 1;
                            return Ok(Value::Array(items));
                        }
                        _ => return Err(p.error("expected `,` or `]`")),
                    }
                }
            }),
            Some(b'{') => self.nested(|p| {
                let mut members = Vec::new();
                if p.peek() == Some(b'}') {
                    p.pos += 1;
                    return Ok(Value::Object(members));
                }
                loop {
                    if p.peek() != Some(b'"') {
                        return Err(p.error("expected a string key"));
                    }
                    let key = p.string()?;
                    p.expect(b':')?;
                    members.push((key, p.value()?));
                    match p.peek() {
                        Some(b',') => p.pos += 1,
                        Some(b'}') => {
                            p.pos += 1;
                            return Ok(Value::Object(members));
                        }
                        _ => return Err(p.error("expected `,` or `}`")),
                    }
                }
            }),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
        }
    }

    /// Parses an array or object (its opening bracket next) with `inner`.
    fn nested(
        &mut self,
        inner: impl FnOnce(&mut Self) -> Result<Value, Error>,
    ) -> Result<Value, Error> {
        if self.depth == MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.depth += 1;
        self.pos += 1;
        let v = inner(self);
        self.depth -= 1;
        v
    }

    fn number(&mut self) -> Result<Value, Error> {
        let start = self.pos;
        let mut float = false;
        while let Some(&b) = self.text.get(self.pos) {
            match b {
                b'0'..=b'9' | b'-' | b'+' => {}
                b'.' | b'e' | b'E' => float = true,
                _ => break,
            }
            self.pos += 1;
        }
        let lexeme = std::str::from_utf8(&self.text[start..self.pos]).expect("ASCII");
        let bad = || Error(format!("`{lexeme}` is not a number"));
        // Grammar check: JSON has no leading `+`, no leading zeros, no bare
        // `.5` or `5.`; Rust's parsers accept some of those.
        let digits = lexeme.strip_prefix('-').unwrap_or(lexeme);
        let int_part = digits.split(['.', 'e', 'E']).next().unwrap_or("");
        if int_part.is_empty()
            || !int_part.bytes().all(|b| b.is_ascii_digit())
            || (int_part.len() > 1 && int_part.starts_with('0'))
            || digits.contains(".e")
            || digits.contains(".E")
            || digits.ends_with('.')
        {
            return Err(self.error(&bad().0));
        }
        if !float {
            if let Ok(u) = lexeme.parse::<u64>() {
                return Ok(Value::UInt(u));
            }
            if let Ok(i) = lexeme.parse::<i64>() {
                return Ok(Value::Int(i));
            }
        }
        match lexeme.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Value::Float(f)),
            _ => Err(self.error(&bad().0)),
        }
    }

    /// A string, its opening quote next.
    fn string(&mut self) -> Result<String, Error> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let start = self.pos;
            while let Some(&b) = self.text.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            // The input is a `&str` cut at ASCII bytes: still UTF-8.
            out.push_str(std::str::from_utf8(&self.text[start..self.pos]).expect("UTF-8"));
            match self.text.get(self.pos) {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let c = match self.text.get(self.pos) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => self.unicode()?,
                        _ => return Err(self.error("invalid escape")),
                    };
                    self.pos += 1;
                    out.push(c);
                }
                Some(_) => return Err(self.error("control character in a string")),
            }
        }
    }

    /// `\uXXXX` (the `u` at `pos`), with a surrogate pair's second half;
    /// leaves `pos` on the last hex digit.
    fn unicode(&mut self) -> Result<char, Error> {
        let hex = |p: &mut Self| -> Result<u32, Error> {
            let digits = p
                .text
                .get(p.pos + 1..p.pos + 5)
                .ok_or_else(|| p.error("short \\u escape"))?;
            let text = std::str::from_utf8(digits).map_err(|_| p.error("bad \\u escape"))?;
            let v = u32::from_str_radix(text, 16).map_err(|_| p.error("bad \\u escape"))?;
            p.pos += 4;
            Ok(v)
        };
        let first = hex(self)?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if self.text.get(self.pos + 1..self.pos + 3) != Some(b"\\u") {
                return Err(self.error("unpaired surrogate in \\u escape"));
            }
            self.pos += 2;
            let second = hex(self)?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(self.error("unpaired surrogate in \\u escape"));
            }
            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.error("unpaired surrogate in \\u escape"))
    }
}

impl<'de> IntoDeserializer<'de, Error> for Value {
    type Deserializer = Value;

    fn into_deserializer(self) -> Value {
        self
    }
}

impl<'de> de::Deserializer<'de> for Value {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::UInt(u) => visitor.visit_u64(u),
            Value::Int(i) => visitor.visit_i64(i),
            Value::Float(f) => visitor.visit_f64(f),
            Value::Str(s) => visitor.visit_string(s),
            Value::Array(items) => {
                let mut seq = SeqDeserializer::new(items.into_iter());
                let v = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(v)
            }
            Value::Object(members) => {
                let mut map = MapDeserializer::new(members.into_iter());
                let v = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(v)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Null => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Value::Str(s) => {
                let d: StringDeserializer<Error> = s.into_deserializer();
                visitor.visit_enum(d)
            }
            Value::Object(mut members) if members.len() == 1 => {
                let (variant, value) = members.pop().expect("one member");
                visitor.visit_enum(Variant { variant, value })
            }
            other => Err(Error(format!(
                "expected an enum (a string or a one-key object), found {}",
                other.kind()
            ))),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::UInt(_) | Value::Int(_) | Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

/// `{"variant": value}` read as an enum with data.
struct Variant {
    variant: String,
    value: Value,
}

impl<'de> de::EnumAccess<'de> for Variant {
    type Error = Error;
    type Variant = Value;

    fn variant_seed<S: de::DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Value), Error> {
        let d: StringDeserializer<Error> = self.variant.into_deserializer();
        Ok((seed.deserialize(d)?, self.value))
    }
}

impl<'de> de::VariantAccess<'de> for Value {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self {
            Value::Null => Ok(()),
            other => Err(Error(format!(
                "expected null for a unit variant, found {}",
                other.kind()
            ))),
        }
    }

    fn newtype_variant_seed<S: de::DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_any(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_any(self, visitor)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};

    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Kind {
        Plain,
        Wrapped(u32),
        Pair(i8, String),
        Named { a: bool, b: Option<f64> },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Everything {
        text: String,
        tricky: String,
        small: i8,
        big: u64,
        negative: i64,
        float: f64,
        whole: f64,
        tiny: f64,
        yes: bool,
        none: Option<String>,
        some: Option<u16>,
        list: Vec<u32>,
        empty: Vec<String>,
        nested: Vec<Vec<Kind>>,
        map: BTreeMap<String, i32>,
        empty_map: BTreeMap<String, i32>,
        kinds: Vec<Kind>,
        tuple: (u8, char),
    }

    fn sample() -> Everything {
        Everything {
            text: "plain".into(),
            tricky: "quote \" backslash \\ newline \n tab \t bell \u{7} é 😀 \u{1f}".into(),
            small: -8,
            big: u64::MAX,
            negative: i64::MIN,
            float: 1795325566.95852,
            whole: 5.0,
            tiny: 1.5e-300,
            yes: true,
            none: None,
            some: Some(7),
            list: vec![1, 2, 3],
            empty: vec![],
            nested: vec![vec![], vec![Kind::Plain, Kind::Wrapped(3)]],
            map: [("x".to_string(), 1), ("y \"q\"".to_string(), -2)].into(),
            empty_map: BTreeMap::new(),
            kinds: vec![
                Kind::Plain,
                Kind::Wrapped(9),
                Kind::Pair(-1, "p".into()),
                Kind::Named {
                    a: false,
                    b: Some(0.25),
                },
                Kind::Named { a: true, b: None },
            ],
            tuple: (255, 'λ'),
        }
    }

    /// Byte for byte what serde_json writes, pretty and compact, so files
    /// written by earlier versions of mu2 do not change when rewritten.
    #[test]
    fn writes_what_serde_json_writes() {
        let v = sample();
        assert_eq!(
            to_string_pretty(&v).unwrap(),
            serde_json::to_string_pretty(&v).unwrap()
        );
        assert_eq!(to_string(&v).unwrap(), serde_json::to_string(&v).unwrap());
    }

    #[test]
    fn reads_what_serde_json_writes_and_back() {
        let v = sample();
        for text in [
            serde_json::to_string_pretty(&v).unwrap(),
            serde_json::to_string(&v).unwrap(),
            to_string_pretty(&v).unwrap(),
        ] {
            assert_eq!(from_str::<Everything>(&text).unwrap(), v);
        }
    }

    #[test]
    fn unknown_fields_defaults_and_whitespace() {
        #[derive(Debug, Default, PartialEq, Deserialize)]
        #[serde(default)]
        struct Meta {
            reasons: Vec<String>,
            valid: bool,
            kills: Vec<String>,
        }
        let m: Meta = from_str(
            " {\"reasons\" : [\"+cov\"],\r\n\t\"valid\": true, \"from_the_future\": {\"a\": [1, 2.5e3, null]}} ",
        )
        .unwrap();
        assert_eq!(
            m,
            Meta {
                reasons: vec!["+cov".into()],
                valid: true,
                kills: vec![]
            }
        );
    }

    #[test]
    fn bad_json_is_an_error_naming_where() {
        for (text, what) in [
            ("", "unexpected end"),
            ("{\"valid\": tru}", "expected a value at line 1 column 11"),
            ("{\"a\": 1,\n \"b\" 2}", "expected `:` at line 2 column 6"),
            ("[1, 2", "expected `,` or `]`"),
            ("\"open", "unterminated string"),
            ("\"\\q\"", "invalid escape"),
            ("\"\\ud800\"", "unpaired surrogate"),
            ("01", "not a number"),
            ("-", "not a number"),
            ("1.", "not a number"),
            ("1e999", "not a number"),
            ("{} x", "trailing characters"),
            ("{1: 2}", "expected a string key"),
        ] {
            let e = from_str::<serde::de::IgnoredAny>(text)
                .unwrap_err()
                .to_string();
            assert!(e.contains(what), "{text:?}: {e}");
        }
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        let e = from_str::<serde::de::IgnoredAny>(&deep)
            .unwrap_err()
            .to_string();
        assert!(e.contains("nested too deeply"), "{e}");
        // A value of the wrong type names what was expected.
        let e = from_str::<Vec<u8>>("[1, 300]").unwrap_err().to_string();
        assert!(e.contains("300"), "{e}");
        assert!(
            from_slice::<u8>(&[0xff])
                .unwrap_err()
                .to_string()
                .contains("UTF-8")
        );
    }

    #[test]
    fn escapes_and_surrogate_pairs() {
        let s: String = from_str(r#""a\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\""#).unwrap();
        assert_eq!(s, "aé😀/\u{8}\u{c}\n\r\t\"\\");
        let f: f64 = from_str("-0.5E+2").unwrap();
        assert_eq!(f, -50.0);
        assert_eq!(to_string(&f64::NAN).unwrap(), "null");
    }
}
