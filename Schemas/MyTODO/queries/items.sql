-- The TODO app's named queries: each is checked against the latest version of MyTODO when
-- the code is generated, and becomes a typed function of MyTODODatabase and MyTODOAccess.

-- name: filteredItems
-- The items that are done (or not), highest priority first, then by title: the list the
-- app's view model showed.
SELECT * FROM todo_item
WHERE is_done = :isDone
ORDER BY priority DESC, title

-- name: openCountsByPriority
-- How many open items each priority has, highest priority first (priorities without any are
-- absent).
SELECT priority, count(*) AS "count: Int"
FROM todo_item
WHERE is_done = FALSE
GROUP BY priority
ORDER BY priority DESC

-- name: search
-- The titles and details of the items whose title contains a text (a LIKE pattern).
SELECT id, title, detail AS note
FROM todo_item
WHERE title LIKE :pattern
ORDER BY title
LIMIT :limit

-- name: markAllDone
-- Marks every item of a priority done.
UPDATE todo_item SET is_done = TRUE WHERE priority = :priority AND is_done = FALSE
