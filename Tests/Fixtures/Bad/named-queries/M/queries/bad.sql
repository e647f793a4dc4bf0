-- name: twice
SELECT title FROM todo_item
-- name: broken
SELECT title FROM todo_item
WHER is_done = :isDone
-- name: unknownColumn
SELECT title, colour FROM todo_item
-- name: twoTypes
SELECT title FROM todo_item WHERE is_done = :value OR title = :value
-- name: twice
SELECT detail FROM todo_item
-- name: badName
SELECT title AS "the title" FROM todo_item
-- name: total
SELECT count(*) AS total FROM todo_item
-- name: untyped
SELECT title FROM todo_item WHERE length(title) > 3 + :n
-- name: twoStatements
DELETE FROM todo_item;
DELETE FROM todo_item
