-- Named queries over Date fields stored as ISO 8601 text ('format:').

-- name: invoicesDueBefore
-- The invoices due before a day, with their dates: bound and read as the columns' text.
SELECT InvoiceId, InvoiceDate, DueDate
FROM Invoice
WHERE DueDate < :day
ORDER BY DueDate

-- name: line
-- An invoice's city and total by its id. Shop, generated into the same module, has a query of this
-- name too: each model's row type is nested in its own queries enum (MusicQueries.LineRow,
-- ShopQueries.LineRow), so the two do not collide.
SELECT InvoiceId, BillingCity, Total FROM Invoice WHERE InvoiceId = :invoice
