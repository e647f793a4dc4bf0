-- name: underscore
SELECT * FROM todo_item WHERE title = :_

-- name: keywordParameter
SELECT * FROM todo_item WHERE title = :default AND detail = :in

-- name: selfParameter
SELECT * FROM todo_item WHERE title = :self

-- name: anonymous
SELECT * FROM todo_item WHERE priority = ?

-- name: numbered
SELECT * FROM todo_item WHERE priority = ?2 AND title = @title AND detail = $detail

-- name: declared
-- param: limit Int
SELECT * FROM todo_item ORDER BY title LIMIT :limit
