/*
 * fence-flow.pml: a Spin model of remedy's fence flow for one node, driven by two engines that share one state
 * store and take turns through a lease. README.md next to this file says what is modelled and what is left out;
 * `check` runs the search.
 *
 * Which part stands for which class:
 *   Rec, st             NodeFence (the fields the invariants need) and the node's record in the FenceStateStore
 *   store_write         FenceStateStore.save (JsonFileStateStore, InMemoryStateStore): compare-and-set on version
 *   completed, advance  FenceFlow.apply: the stage handlers (IsolateClusterStage, PowerOffStage, ConfirmOffStage,
 *                       ClusterStage for RELEASE and LIFT_OUT_OF_SERVICE, PowerOnStage, AwaitReadyStage) and Moves
 *   Engine              FenceEngine: write-ahead (save the transition, then run its effect), start() (load, then
 *                       issue the operation in flight again), and what the engine work under way adds: reload and
 *                       decide again on a stale record, keep the flow where it was when a save fails; plus the lease,
 *                       which FenceEngine does not have yet (fence-kube will hold it)
 *   perform             FenceEngine.perform and OperationRunner: run the operation in flight
 *   power               the machine; the fence agent's OFF, ON and STATUS act on it
 *   Environment         calms down at some point: no more crashes or lease expiries
 *
 * Variants, chosen with spin -D<NAME>; `check` requires Spin to find a violation in each:
 *   BROKEN_RELEASE  the engine releases the workloads as soon as STATUS reads OFF, before the confirmation is saved
 *   NO_CAS          the store saves without comparing versions
 *   NO_CLAIM        a new lease holder issues the operation in flight again straight from what it loaded, without
 *                   saving the record first (what FenceEngine.start() does)
 *   DROP_RESULT     after a failed save the engine drops the result in hand, and nothing counts the operation as
 *                   lost (FenceFlow.lostOperation): the flow hangs, which (3) must find
 *   WITNESS         (3) is replaced by "the flow never finishes after a release": proves the whole flow is reachable
 */

/* ---- bounds: they keep the search exhaustive and finite ---- */
#ifndef MAXCRASH
#define MAXCRASH   2   /* engine crashes, both engines together */
#endif
#ifndef MAXLOSS
#define MAXLOSS    2   /* lease expiries */
#endif
#ifndef MAXFAULT
#define MAXFAULT   1   /* failed saves: nothing written, or written but reported as failed */
#endif
#ifndef MAXBAD
#define MAXBAD     2   /* mishaps: lost commands, failed or timed-out operations, unreadable STATUS */
#endif
#define MAXRETRY   1   /* retries of a step (FenceStep plan retries), or of an operation within its stage's window */
#define MAXPOLL    1   /* STATUS reads again before the level's share of the budget is used (ConfirmOffStage) */

mtype = {
  /* Stage, the ones modelled, in flow order. HOLD is over when the model starts; ISOLATE_AGENTS and RACE_DELAY (no
     isolation agents, no soft fencing) and UNFENCE are left out; AWAIT_READY stands for the recovery stages. */
  ISOLATE,        /* ISOLATE_CLUSTER: cordon and taint */
  POWER_OFF,      /* send OFF */
  CONFIRM_OFF,    /* read STATUS until it reads OFF */
  RELEASE,        /* out-of-service taint, delete the pods */
  LIFT,           /* LIFT_OUT_OF_SERVICE */
  POWER_ON,       /* send ON */
  AWAIT_READY,    /* wait for the node to be Ready, then recovery */
  FINISHED,       /* FINAL */
  FAILED,         /* ERROR, given up: maxRestarts = 0, the restart loop is left out */
  /* Operation: what a record may have in flight (NodeFence.inFlight: at most one) */
  NO_OP,
  OP_ISOLATE,     /* ClusterAction.ISOLATE */
  OP_OFF,         /* agent OFF */
  OP_STATUS,      /* agent STATUS */
  OP_RELEASE,     /* ClusterAction.RELEASE_WORKLOADS */
  OP_LIFT,        /* ClusterAction.LIFT_OUT_OF_SERVICE */
  OP_ON,          /* agent ON */
  /* Observation.Completed: an operation's result */
  R_NONE,
  R_OK,           /* SUCCEEDED */
  R_FAIL,         /* FAILED; for STATUS, could not read */
  R_TIMEOUT,      /* TIMED_OUT, or no result within the budget (FenceFlow.lostOperation) */
  R_READ_OFF,     /* STATUS SUCCEEDED, PowerState.OFF */
  R_READ_ON       /* STATUS SUCCEEDED, PowerState.ON */
};

#define ON  1
#define OFF 0

/* NodeFence, reduced to: stage, inFlight (op, and its id node#seq), retries, polls, confirmation (only
   STATUS_READ_OFF is modelled), released, poweredOff, version. */
typedef Rec {
  mtype stage;
  mtype op;
  byte seq;
  byte retries;
  byte polls;
  bit confirmed;
  bit released;
  bit poweredOff;
  byte ver
};

/* ---- shared state ---- */
Rec st;               /* the store's record of the node */
bit power = ON;       /* the machine: only remedy's OFF and ON change it */
byte lease = 0;       /* the lease holder: 0 (expired, free), engine 1 or engine 2 */
byte crashes = 0;
byte losses = 0;
byte faults = 0;
byte bad = 0;

/* ---- ghosts for the invariants ---- */
bit releasedWorkloads = 0;  /* RELEASE_WORKLOADS ran */
bit onSent = 0;             /* remedy sent ON: the flow is powering the node back on */
byte actor = 0;             /* the engine that ran an operation since the store last changed, 0 if none */

#define settled(r) (r.stage == FINISHED || r.stage == FAILED)

inline copy(d, s) {
  d.stage = s.stage; d.op = s.op; d.seq = s.seq; d.retries = s.retries; d.polls = s.polls;
  d.confirmed = s.confirmed; d.released = s.released; d.poweredOff = s.poweredOff; d.ver = s.ver
}

inline clear(r) {
  r.stage = 0; r.op = 0; r.seq = 0; r.retries = 0; r.polls = 0;
  r.confirmed = 0; r.released = 0; r.poweredOff = 0; r.ver = 0
}

/*
 * FenceStateStore.save(r) by engine e: succeeds only if the stored version equals r's version, and then stores r
 * with version + 1; otherwise StaleRecordException. JsonFileStateStore compares and renames under a lock of its own
 * process; that this is atomic between two engines is what the directory lock under way (one engine per
 * directory) or a Kubernetes store's resourceVersion must give. NO_CAS: the store writes whatever it is given.
 */
inline store_write(r, ok) {
#ifdef NO_CAS
  ok = true;
#else
  ok = (st.ver == r.ver);
#endif
  if
  :: ok -> copy(st, r); st.ver = r.ver + 1; actor = 0   /* see (2) */
  :: else
  fi
}

/* ---- the flow: FenceFlow.apply, a function of the record, the result, and the node's readiness ---- */

/* Draft.issue, from Moves.agent or Moves.cluster: a new operation, node#(sequence + 1), goes in flight. */
inline issue(r, action) {
  r.op = action; r.seq = r.seq + 1
}

/* Moves.stepAttemptFailed: retried from the step's first stage unless it timed out or the retries are used up;
   otherwise Moves.fail: FAILED, given up, with an alert that says whether the node was left powered off. */
inline step_failed(r, timedOut) {
  if
  :: !(timedOut) && r.retries < MAXRETRY ->
       r.retries++; r.polls = 0;
       if
       :: r.stage == ISOLATE -> skip          /* ISOLATION starts again at ISOLATE_CLUSTER */
       :: else -> r.stage = POWER_OFF         /* POWER_MANAGEMENT starts again at POWER_OFF */
       fi
  :: else -> r.stage = FAILED
  fi
}

/* Moves.clusterResult and Moves.retryingResult: the same operation again after a backoff while the stage's window
   (cluster actions) or the step deadline (ON) lasts, then FAILED. */
inline retry_or_fail(r) {
  if
  :: r.retries < MAXRETRY -> r.retries++
  :: else -> r.stage = FAILED
  fi
}

/* FenceFlow.completed: the result x of the operation in flight goes to the stage that issued it. */
inline completed(r, x) {
  r.op = NO_OP;
  if
  :: r.stage == ISOLATE ->                             /* IsolateClusterStage */
       if
       :: x == R_OK -> r.stage = POWER_OFF; r.retries = 0; r.polls = 0   /* Moves.enterRunning: a new step */
       :: else -> step_failed(r, x == R_TIMEOUT)
       fi
  :: r.stage == POWER_OFF ->                           /* PowerOffStage */
       if
       :: x == R_OK -> r.stage = CONFIRM_OFF; r.polls = 0
       :: else -> step_failed(r, x == R_TIMEOUT)
       fi
  :: r.stage == CONFIRM_OFF ->                         /* ConfirmOffStage */
       if
       :: x == R_READ_OFF ->                           /* readOff, Draft.confirm, Moves.routeConfirmed */
            r.poweredOff = 1; r.confirmed = 1; r.stage = RELEASE; r.retries = 0
       :: x != R_READ_OFF && r.polls < MAXPOLL -> r.polls++      /* read again after a backoff */
       :: else -> step_failed(r, false)                /* the level's share is used: Moves.agentLevelResult */
       fi
  :: r.stage == RELEASE ->                             /* ClusterStage(RELEASE_WORKLOADS) */
       if
       :: x == R_OK -> r.released = 1; r.stage = LIFT; r.retries = 0
       :: else -> retry_or_fail(r)
       fi
  :: r.stage == LIFT ->                                /* ClusterStage(LIFT_OUT_OF_SERVICE), then Moves.powerOn */
       if
       :: x == R_OK -> r.stage = POWER_ON; r.retries = 0
       :: else -> retry_or_fail(r)
       fi
  :: r.stage == POWER_ON ->                            /* PowerOnStage, then Moves.enterDone */
       if
       :: x == R_OK -> r.poweredOff = 0; r.stage = AWAIT_READY
       :: else -> retry_or_fail(r)
       fi
  fi
}

#define NOT_SEEN  0   /* the node's readiness was not looked at: AWAIT_READY waits */
#define NOT_READY 1   /* not Ready, and the wait is over */
#define READY     2

/* FenceFlow.advance: with nothing in flight, the stage issues its operation (StageHandler.advance). AWAIT_READY
   ends the flow once the node is Ready (a powered node becomes Ready), and fails it when the wait is over. */
inline advance(r, seen) {
  if
  :: r.stage == ISOLATE     -> issue(r, OP_ISOLATE)
  :: r.stage == POWER_OFF   -> issue(r, OP_OFF); r.poweredOff = 1   /* Moves.agent: noted before the OFF is sent */
  :: r.stage == CONFIRM_OFF -> issue(r, OP_STATUS)
  :: r.stage == RELEASE     -> issue(r, OP_RELEASE)
  :: r.stage == LIFT        -> issue(r, OP_LIFT)
  :: r.stage == POWER_ON    -> issue(r, OP_ON)
  :: r.stage == AWAIT_READY ->
       if
       :: seen == READY -> r.stage = FINISHED
       :: seen == NOT_READY -> r.stage = FAILED
       :: seen == NOT_SEEN -> skip
       fi
  :: settled(r) -> skip
  fi
}

/* ---- the invariants (1) and (2), checked where the action happens; (3) is checked by Quiescence ---- */

/* (1) Workloads are released only after a confirmation was saved: when RELEASE_WORKLOADS runs, the latest record
   in the store holds the confirmation (STATUS read OFF), and the machine is off. */
inline release_workloads(e) {
  printf("engine %d releases the workloads; store: confirmed %d; power %d\n", e, st.confirmed, power);
  assert(st.confirmed && power == OFF);
  releasedWorkloads = 1
}

/* (2) No double fence. An engine runs an operation, an OFF above all, only
   (a) while it holds the lease, and only the operation in flight in the latest record of the store: never for a
       record the flow has already moved past; so, in particular, no OFF after the ON that powers the node back on;
   (b) under a record version no other engine has acted under: two engines never both send an OFF for one version.
   Sending the same OFF (the same operation id) again after a take-over or a crash is the designed, idempotent
   re-issue, and is allowed: the new holder does it under a version of its own, the one it saved to claim the record.
   Under (a), operations run only under the version the store holds, so (b) needs to remember only who acted since
   the store last changed (store_write forgets it). */
inline acts_on_latest(e, m) {
  assert(lease == e && st.ver == m.ver && st.op == m.op && st.seq == m.seq);   /* (a) */
  assert(actor == 0 || actor == e);                                             /* (b) */
  actor = e
}

/* Something goes wrong on the machine or in the cluster: a command is lost, an operation fails or times out, a
   STATUS cannot be read. Bounded, like crashes and lease expiries. */
inline mishap() {
  bad < MAXBAD -> bad++
}

/* FenceEngine.perform and OperationRunner: engine e runs the operation m has in flight, in one step with its lease
   check (the lease's contract: a holder stops acting before its lease can expire, and an operation ends within
   its budget). The machine may not obey; the result is any an agent or the cluster can report. */
inline perform(e, m, res) {
  printf("engine %d runs %e #%d under version %d; the store is at version %d\n", e, m.op, m.seq, m.ver, st.ver);
  acts_on_latest(e, m);
  if
  :: m.op == OP_OFF ->
       assert(!onSent);
       if :: power = OFF :: mishap() fi              /* the OFF may be lost */
  :: m.op == OP_ON ->
       onSent = 1;
       if :: power = ON :: mishap() fi               /* the ON may be lost */
  :: m.op == OP_RELEASE ->
       release_workloads(e)
  :: else
  fi;
  if
  :: m.op == OP_STATUS ->                             /* a STATUS that succeeds reads the truth */
       if
       :: power == OFF -> res = R_READ_OFF
       :: power == ON -> res = R_READ_ON
       :: mishap(); res = R_FAIL
       fi
  :: else ->                                          /* success, whether or not the command took effect */
       if
       :: res = R_OK
       :: mishap(); if :: res = R_FAIL :: res = R_TIMEOUT fi
       fi
  fi
}

/* ---- an engine ---- */

/* What an engine knows. It is forgotten at a crash, and when the engine no longer holds the lease: it can then do
   nothing but finish a save under way, or take the lease again, which starts it from the store. */
inline forget() {
  valid = 0; claimed = 0; sent = 0; res = R_NONE; resSeq = 0; seen = NOT_SEEN; clear(mem)
}

/* FenceEngine.start(), and the reload after a stale save: the record as the store has it. A result in hand is kept
   only if its operation is still the one in flight (FenceFlow.completed ignores any other): the flow decides again
   on the fresh record. */
inline reload() {
  copy(mem, st); valid = 1; claimed = 0; sent = 0;
  if
  :: mem.op == NO_OP || mem.seq != resSeq -> res = R_NONE; resSeq = 0
  :: else
  fi;
#ifdef NO_CLAIM
  claimed = 1;
#endif
  skip
}

#define CLAIMING 1
#define DECIDING 2

/* The transition a save writes, computed from what the engine held when it decided (which cannot change while it
   saves): a claim is the record as loaded; a decision applies the result in hand (FenceFlow.completed, then
   advance), or, with none, advances (a tick; in AWAIT_READY with the readiness seen then). */
inline transition() {
  copy(nx, mem);
  if
  :: saving == DECIDING && res != R_NONE -> completed(nx, res); advance(nx, NOT_SEEN)
  :: saving == DECIDING && res == R_NONE -> advance(nx, seen)
  :: else
  fi
}

/*
 * Engine e (FenceEngine), a sequential process. It acts only while it holds the lease; it saves every transition
 * before it runs the transition's operation (write-ahead); a crash wipes its memory and it starts again from the
 * store. Each step is atomic. Between two steps anything else may happen: the other engine's steps, a lease
 * expiry, and a save may land long after it was decided (a slow write, a paused process).
 */
proctype Engine(byte e) {
  Rec mem;             /* FenceEngine.records: its copy of the record */
  Rec nx;              /* scratch: the transition a save writes */
  bit valid = 0;       /* mem was loaded */
  bit claimed = 0;     /* mem is a version this engine saved */
  bit sent = 0;        /* mem's operation was run since mem was loaded */
  byte saving = 0;     /* CLAIMING or DECIDING while a save is under way */
  byte seen = NOT_SEEN;  /* the readiness seen when deciding in AWAIT_READY */
  mtype res = R_NONE;  /* the result of mem's operation, not yet applied */
  byte resSeq = 0;     /* the operation (seq) that res belongs to */
  bool ok = false;

end_idle:
  do
  /* a crash, at any point: memory is lost; a save under way may or may not have reached the store */
  :: atomic { crashes < MAXCRASH -> crashes++; printf("engine %d crashes\n", e);
       if
       :: saving -> transition(); store_write(nx, ok);
            printf("engine %d: its save of %e on version %d landed: %d\n", e, nx.stage, nx.ver, ok)
       :: true
       fi;
       saving = 0; ok = false; clear(nx); forget() }

  /* the lease expires under its holder, at any moment */
  :: atomic { losses < MAXLOSS && lease == e -> lease = 0; losses++; printf("engine %d loses the lease\n", e);
       if :: !saving -> forget() :: else fi }

  /* the lease is free: take it, and start from the store */
  :: atomic { lease == 0 && !saving -> lease = e; reload();
       printf("engine %d takes the lease, loads version %d\n", e, mem.ver) }

  /* the holder starts again after a crash: FenceEngine.start() */
  :: atomic { lease == e && !valid && !saving -> reload(); printf("engine %d restarts, loads version %d\n", e, mem.ver) }

  /* the holder claims what it loaded: saves it unchanged (version + 1) before acting on it */
  :: atomic { lease == e && valid && !claimed && !saving -> saving = CLAIMING }

  /* run the operation in flight: the effect of the transition just saved, or the re-issue after a load */
  :: atomic { lease == e && valid && claimed && !saving && mem.op != NO_OP && !sent && res == R_NONE ->
       perform(e, mem, res); resSeq = mem.seq; sent = 1 }

  /* decide on the result in hand */
  :: atomic { lease == e && valid && claimed && !saving && res != R_NONE ->
#ifdef BROKEN_RELEASE
       if :: mem.stage == CONFIRM_OFF && res == R_READ_OFF -> release_workloads(e) :: else fi;
#endif
       saving = DECIDING }

  /* decide with nothing in flight: a new record, or AWAIT_READY looking at the node (a tick) */
  :: atomic { lease == e && valid && claimed && !saving && mem.op == NO_OP && res == R_NONE && !settled(mem) ->
       if
       :: mem.stage == AWAIT_READY && power == ON -> seen = READY
       :: mem.stage == AWAIT_READY && power == OFF -> seen = NOT_READY
       :: else
       fi;
       saving = DECIDING }

  /* the save lands, whoever holds the lease by now */
  :: atomic { saving ->
       transition();
       printf("engine %d saves %e, %e #%d on version %d; store at version %d\n", e, nx.stage, nx.op, nx.seq,
              nx.ver, st.ver);
       if
       :: faults < MAXFAULT -> faults++;                      /* I/O error, nothing written */
            printf("engine %d: the save failed, nothing written\n", e);
#ifdef DROP_RESULT
            res = R_NONE;
#endif
            skip
       :: faults < MAXFAULT -> faults++; store_write(nx, ok); /* written, but the engine got an error */
            printf("engine %d: the save failed, but it was written: %d\n", e, ok)
       :: true ->
            store_write(nx, ok);
            if
            :: ok && saving == CLAIMING -> mem.ver = nx.ver + 1; claimed = 1
            :: ok && saving == DECIDING ->
                 if :: nx.seq != mem.seq -> sent = 0 :: else fi;
                 copy(mem, nx); mem.ver = nx.ver + 1; res = R_NONE; resSeq = 0
            :: !ok -> reload(); printf("engine %d: stale record, loads version %d\n", e, mem.ver)
            fi
       fi;
       /* a failed save leaves mem and the result in hand as they were: the step is taken again later */
       saving = 0; seen = NOT_SEEN; ok = false; clear(nx);
       if :: lease != e -> forget() :: else fi }
  od
}

/* The environment may calm down at any point: it gives up the crashes and lease expiries it has left. As that
   point may be any, a flow that would stay stuck until the next crash is found by (3). */
active proctype Environment() {
end_calm:
  do
  :: atomic { crashes < MAXCRASH || losses < MAXLOSS -> crashes = MAXCRASH; losses = MAXLOSS }
  od
}

/* (3) No host left off, no flow left hanging: whenever nothing at all can move any more, the flow has ended; it
   ended FINISHED only with the node powered on, and the only end with the node off is FAILED (given up, with an
   alert). WITNESS instead claims that no flow finishes after releasing workloads, which Spin must refute. */
active proctype Quiescence() {
  timeout ->
#ifdef WITNESS
  assert(!(st.stage == FINISHED && releasedWorkloads))
#else
  assert(settled(st) && (st.stage == FAILED || power == ON))
#endif
}

init {
  /* FenceEngine.decide saved the new record (version 1) and its hold is over */
  atomic {
    st.stage = ISOLATE; st.op = NO_OP; st.seq = 0; st.ver = 1;
    run Engine(1);
    run Engine(2)
  }
}
