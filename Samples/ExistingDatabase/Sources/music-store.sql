-- A small music store, made the way another program would make it: its own type names,
-- PascalCase columns, named constraints, foreign keys with indexes, CHECK and DEFAULT
-- constraints, a table name with a space, and dates as SQLite writes them.
CREATE TABLE [Artist] (
  [ArtistId] INTEGER NOT NULL,
  [Name] NVARCHAR(120),
  CONSTRAINT [PK_Artist] PRIMARY KEY ([ArtistId]));

CREATE TABLE [Album] (
  [AlbumId] INTEGER NOT NULL,
  [Title] NVARCHAR(160) NOT NULL,
  [ArtistId] INTEGER NOT NULL,
  CONSTRAINT [PK_Album] PRIMARY KEY ([AlbumId]),
  FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
CREATE INDEX [IFK_AlbumArtistId] ON [Album] ([ArtistId]);

CREATE TABLE [Customer] (
  [CustomerId] INTEGER NOT NULL,
  [FirstName] NVARCHAR(40) NOT NULL,
  [LastName] NVARCHAR(20) NOT NULL,
  [Email] NVARCHAR(60) NOT NULL,
  [Country] NVARCHAR(40) NOT NULL DEFAULT 'USA',
  [CreatedAt] DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT [PK_Customer] PRIMARY KEY ([CustomerId]));
CREATE UNIQUE INDEX [IX_CustomerEmail] ON [Customer] ([Email]);

CREATE TABLE [Invoice] (
  [InvoiceId] INTEGER NOT NULL,
  [CustomerId] INTEGER NOT NULL,
  [InvoiceDate] DATETIME NOT NULL,
  [Total] NUMERIC(10,2) NOT NULL,
  CONSTRAINT [PK_Invoice] PRIMARY KEY ([InvoiceId]),
  FOREIGN KEY ([CustomerId]) REFERENCES [Customer] ([CustomerId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
CREATE INDEX [IFK_InvoiceCustomerId] ON [Invoice] ([CustomerId]);

CREATE TABLE [Invoice Line] (
  [InvoiceLineId] INTEGER NOT NULL,
  [InvoiceId] INTEGER NOT NULL,
  [UnitPrice] NUMERIC(10,2) NOT NULL,
  [Quantity] INTEGER NOT NULL CHECK ([Quantity] > 0),
  CONSTRAINT [PK_InvoiceLine] PRIMARY KEY ([InvoiceLineId]),
  FOREIGN KEY ([InvoiceId]) REFERENCES [Invoice] ([InvoiceId]) ON DELETE CASCADE);
CREATE INDEX [IFK_InvoiceLineInvoiceId] ON [Invoice Line] ([InvoiceId]);

INSERT INTO [Artist] VALUES (1, 'AC/DC'), (2, 'Accept'), (3, 'Aerosmith');
INSERT INTO [Album] VALUES
  (1, 'For Those About To Rock We Salute You', 1), (2, 'Balls to the Wall', 2),
  (3, 'Restless and Wild', 2), (4, 'Let There Be Rock', 1), (5, 'Big Ones', 3);
INSERT INTO [Customer] VALUES
  (1, 'Luís', 'Gonçalves', 'luisg@embraer.com.br', 'Brazil', '2021-01-01 00:00:00'),
  (2, 'Leonie', 'Köhler', 'leonekohler@surfeu.de', 'Germany', '2016-07-04'),
  (3, 'François', 'Tremblay', 'ftremblay@gmail.com', 'Canada', '2021-03-05T10:20:30Z');
INSERT INTO [Invoice] VALUES
  (1, 2, '2021-01-01 00:00:00', 1.98), (2, 1, '2021-01-02 10:30:00', 25),
  (3, 3, '2021-02-03 08:00:00.000', 5.94);
INSERT INTO [Invoice Line] VALUES (1, 1, 0.99, 2), (2, 2, 25, 1), (3, 3, 0.99, 6);
