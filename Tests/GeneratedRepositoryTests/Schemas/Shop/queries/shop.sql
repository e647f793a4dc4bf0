-- Named queries over references, a composite key and keyword names.

-- name: ordersWithCustomer
-- The orders of a status with their customer's name and nickname (an inner join).
SELECT o.id, o.status, o.total, c.name AS customer_name, c.nickname
FROM "order" AS o
JOIN customer AS c ON c.id = o.customer
WHERE o.status = :status
ORDER BY c.name, o.total

-- name: customersWithOrders
-- Every customer with the number of their orders and one of them: customers without orders are
-- kept (a LEFT JOIN, so the order's columns are optional).
SELECT c.id, c.name, max(o.id) AS "anyOrder: UUID?", count(o.id) AS "orders: Int", o.note
FROM customer c
LEFT JOIN "order" o ON o.customer = c.id
GROUP BY c.id
ORDER BY c.name

-- name: orderNotes
-- Every customer with the total and note of each of their orders, customers without orders kept
-- once (a LEFT JOIN: the order's columns are optional). Written to run on SQLite and PostgreSQL.
SELECT c.name, o.total, o.note
FROM customer c
LEFT JOIN "order" o ON o.customer = c.id
ORDER BY c.name, o.total

-- name: line
-- One order line by its composite key.
SELECT quantity, size, payload FROM order_line WHERE "order" = :order AND position = :position

-- name: keywordsOfClass
-- Keyword names as columns and parameters.
SELECT "default", protocol, self_check FROM keywords WHERE class = :class AND "default" >= :default
ORDER BY "default"

-- name: customersJoinedSince
-- param: since Date
SELECT * FROM customer WHERE joined >= :since ORDER BY id
