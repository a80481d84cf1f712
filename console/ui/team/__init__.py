"""Team mode in the window: the approval queue pane (:mod:`.queue_pane`), opened from
View > Approval queue when this profile has a team DSN (:func:`.queue_pane.open_queue`)."""
