//! `map.scheduler()`, or `map.scheduler(state, actors)`: a scheduler, or
//! one saved by `s:state()`, its actors the game's, in the order
//! `s:actors()` gave them (its kind and methods: `natives/scheduler.rs`).

use crate::input::Arg;
use crate::lua::natives::scheduler::NewScheduler;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export, Fresh};
use crate::memory;
use crate::toolbox::scheduler::{self, Scheduler};

pub const EXPORT: Export = Export {
    name: "scheduler",
    function: new_scheduler,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(new_scheduler, "map.scheduler", |args: &Args| {
    args.at_most(2)?;
    let text = match args.get(1) {
        Arg::Missing if args.get(2) == Arg::Missing => {
            let fresh = Fresh::new(Scheduler::new());
            return Ok(NewScheduler { fresh, actors: 0 });
        }
        Arg::Str(text) => text,
        other => {
            return Err(format!(
                "state must be a string from scheduler:state(), got {}",
                other.type_name()
            ))
        }
    };
    let named = Scheduler::count_saved(text);
    memory::check(scheduler::bound(named))?;
    let s = Scheduler::load(text)?;
    let n = s.len();
    let given = match args.is_table(2) {
        true => args.length(2),
        false if n == 0 && args.get(2) == Arg::Missing => 0,
        false => {
            return Err(format!(
                "actors must be an array of the state's {n} actors (in the order of scheduler:actors()), got {}",
                args.get(2).type_name()
            ))
        }
    };
    if given != n {
        return Err(format!("actors has {given} actors, the state names {n}"));
    }
    Ok(NewScheduler {
        fresh: Fresh::new(s),
        actors: n,
    })
});
