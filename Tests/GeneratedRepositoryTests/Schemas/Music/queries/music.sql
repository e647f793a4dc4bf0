-- Named queries over Date fields stored as ISO 8601 text ('format:').

-- name: invoicesDueBefore
-- The invoices due before a day, with their dates: bound and read as the columns' text.
SELECT InvoiceId, InvoiceDate, DueDate
FROM Invoice
WHERE DueDate < :day
ORDER BY DueDate
