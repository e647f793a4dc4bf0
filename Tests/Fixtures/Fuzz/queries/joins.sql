-- name: pairs
SELECT a.id, b.title AS "other: String?"
FROM todo_item a LEFT JOIN todo_item b ON b.priority = a.priority AND b.id <> a.id
WHERE a.title LIKE :pattern AND a.priority BETWEEN :low AND :high

-- name: counts
SELECT priority, count(*) AS "n: Int" FROM todo_item WHERE is_done = :done GROUP BY priority

-- name: rename
UPDATE todo_item SET title = :title WHERE id = :id
