-- The generator's fixture: tables another program made, with the names and types such
-- programs use. GeneratedShop.swift is this script's models (see ModelGeneratorTests).

CREATE TABLE [Customer] (
  [CustomerId] INTEGER PRIMARY KEY,
  [FirstName] NVARCHAR(40) NOT NULL,
  [Email] VARCHAR(60),
  [CreatedAt] DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  [Balance] NUMERIC(10,2),
  [Active] BOOLEAN NOT NULL DEFAULT 1,
  [Photo] BLOB,
  [Extra]
);

-- A composite key, WITHOUT ROWID, names with spaces, symbols and keywords.
CREATE TABLE "order line" (
  "order id" INTEGER NOT NULL,
  "line#" INTEGER NOT NULL,
  "class" TEXT NOT NULL,
  "Quantity" INT NOT NULL,
  "unit price" DOUBLE PRECISION NOT NULL,
  "Discount" REAL,
  PRIMARY KEY ("order id", "line#")
) WITHOUT ROWID;

-- Differs from "order line" only in case once made a Swift name.
CREATE TABLE orderline (id TEXT PRIMARY KEY NOT NULL, note TEXT);

-- Every declared type of SQLite's affinity rules (https://sqlite.org/datatype3.html).
CREATE TABLE types (
  id INTEGER PRIMARY KEY,
  a_int INT, a_integer INTEGER, a_tinyint TINYINT, a_smallint SMALLINT,
  a_mediumint MEDIUMINT, a_bigint BIGINT, a_unsigned_big_int UNSIGNED BIG INT, a_int2 INT2,
  a_int8 INT8,
  a_character CHARACTER(20), a_varchar VARCHAR(255), a_varying_character VARYING CHARACTER(255),
  a_nchar NCHAR(55), a_native_character NATIVE CHARACTER(70), a_nvarchar NVARCHAR(100),
  a_text TEXT, a_clob CLOB,
  a_blob BLOB, a_none,
  a_real REAL, a_double DOUBLE, a_double_precision DOUBLE PRECISION, a_float FLOAT,
  a_numeric NUMERIC, a_decimal DECIMAL(10,5), a_boolean BOOLEAN, a_date DATE,
  a_datetime DATETIME,
  a_floating_point FLOATING POINT, a_timestamp TIMESTAMP, a_date_text DATE_TEXT,
  a_string STRING
);

-- Hostile names: reserved words, quotes, a leading digit, no letters at all, names that
-- become the same Swift name, a table named like a Swift type.
CREATE TABLE "Self" (
  "Type" TEXT PRIMARY KEY NOT NULL,
  "self" TEXT,
  "first name" TEXT,
  "first_name" TEXT,
  "FirstName2" TEXT,
  "2nd" INTEGER,
  "!!!" TEXT,
  "say ""hi""" TEXT,
  "back\slash" TEXT,
  "init" TEXT,
  "default" INTEGER NOT NULL DEFAULT 0,
  "ünïcode" TEXT
);

CREATE TABLE strict_things (id INT PRIMARY KEY, payload ANY, amount REAL NOT NULL) STRICT;

-- No primary key, but a unique index: that is the key.
CREATE TABLE tags (label TEXT NOT NULL, color TEXT);
CREATE UNIQUE INDEX tags_label ON tags(label);

-- No key at all: not generated.
CREATE TABLE log (at TEXT, message TEXT);

-- Foreign keys: one to a parent (with actions), two to the same parent, one to itself;
-- the generator declares them and the associations they give, both ways.
CREATE TABLE bill (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES Customer(CustomerId) ON DELETE CASCADE,
  billed_to INTEGER REFERENCES Customer,
  corrects INTEGER REFERENCES bill(id) ON DELETE SET NULL,
  total REAL NOT NULL DEFAULT 0
);
CREATE TABLE bill_line (
  bill_id INTEGER NOT NULL REFERENCES bill ON DELETE CASCADE ON UPDATE CASCADE,
  position INTEGER NOT NULL,
  label TEXT NOT NULL,
  PRIMARY KEY (bill_id, position)
);

CREATE VIEW customer_names AS SELECT FirstName FROM Customer;
