-- 0010_ping_retries: what GET /api/ping/status shows of a URL still pending
-- whose verification is being retried: its last error and when it will be
-- tried again.
--
-- job_id: the verify_ping job (river_job.id) whose attempt last took the
-- URL, set by the worker at the start of every attempt (so it is there
-- even when the process dies mid-attempt). The status reads the job's
-- last error and scheduled_at through it.
-- retry_attempt: the attempt that recorded reason while the URL is still
-- pendente (the worker's word for a transient failure). A later error of
-- the job (the rescuer's, after a crash) outranks it.
ALTER TABLE pings
    ADD COLUMN job_id bigint,
    ADD COLUMN retry_attempt integer;
